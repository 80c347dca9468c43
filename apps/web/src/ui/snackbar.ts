import { notifications } from '@mantine/notifications';

/** spec1 §9 / spec3 §9: a snackbar stays 3000 ms. */
export const SNACKBAR_MS = 3000;

/** A short, quiet confirmation at the bottom of the page. */
export const showSnackbar = (text: string) =>
  notifications.show({
    message: text,
    autoClose: SNACKBAR_MS,
    position: 'bottom-center',
    withCloseButton: false,
  });
