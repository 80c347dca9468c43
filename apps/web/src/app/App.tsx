import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider, Modal, Popover, Tooltip } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { LAYERS } from '@media/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ReloginDialog } from './ReloginDialog.tsx';
import { router } from './router.tsx';

/** spec1 §9: tooltips open after 1000 ms. */
const TOOLTIP_DELAY_MS = 1000;
/** spec3 §9: every modal's backdrop and window layers. */
const MODAL_LAYERS = { zIndex: LAYERS.modalWindow, overlayProps: { zIndex: LAYERS.modalBackdrop } };
const theme = createTheme({
  primaryColor: 'indigo',
  components: {
    Tooltip: Tooltip.extend({ defaultProps: { openDelay: TOOLTIP_DELAY_MS, zIndex: LAYERS.tooltip } }),
    Modal: Modal.extend({ defaultProps: MODAL_LAYERS }),
    Popover: Popover.extend({ defaultProps: { zIndex: LAYERS.popover } }),
  },
});
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

export const App = () => (
  <MantineProvider theme={theme} defaultColorScheme="auto">
    <Notifications position="top-right" zIndex={LAYERS.toast} />
    <QueryClientProvider client={queryClient}>
      {/* The modals manager sets its own z-index unless told. */}
      <ModalsProvider
        modalProps={{
          zIndex: LAYERS.stackedModalWindow,
          overlayProps: { zIndex: LAYERS.stackedModalBackdrop },
        }}
      >
        <RouterProvider router={router} />
        <ReloginDialog />
      </ModalsProvider>
    </QueryClientProvider>
  </MantineProvider>
);
