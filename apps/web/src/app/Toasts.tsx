import { Notifications } from '@mantine/notifications';
import { LAYERS } from '@media/contract';
import { HEADER_HEIGHT } from '../ui/layout.ts';
import classes from './Toasts.module.css';

/**
 * The toasts' container, top right below the header (the user menu and the notifications stay usable); loaded
 * after the first render, toasts raised before it are kept by the store.
 */
export const Toasts = () => (
  <Notifications
    position="top-right"
    zIndex={LAYERS.toast}
    classNames={{ root: classes.root }}
    styles={{ root: { '--toasts-top': `calc(${HEADER_HEIGHT}px + var(--mantine-spacing-xs))` } }}
  />
);
