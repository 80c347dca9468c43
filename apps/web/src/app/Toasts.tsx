import { Notifications } from '@mantine/notifications';
import { LAYERS } from '@media/contract';

/** The toasts' container; loaded after the first render, toasts raised before it are kept by the store. */
export const Toasts = () => <Notifications position="top-right" zIndex={LAYERS.toast} />;
