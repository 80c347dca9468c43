import { ModalsProvider } from '@mantine/modals';
import { LAYERS } from '@media/contract';
import { useEffect } from 'react';
import { modalsMounted } from '../ui/modals-ready.ts';

/** The manager of the dialogs opened through `modals` (ui/dialogs.tsx); it renders them beside the app. */
export const ModalsHost = () => {
  // Runs after the provider's own effects, so its event listeners are attached by then.
  useEffect(modalsMounted, []);
  return (
    // The modals manager sets its own z-index unless told.
    <ModalsProvider
      modalProps={{
        zIndex: LAYERS.stackedModalWindow,
        overlayProps: { zIndex: LAYERS.stackedModalBackdrop },
      }}
    />
  );
};
