import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider, Tooltip } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ReloginDialog } from './ReloginDialog.tsx';
import { router } from './router.tsx';

/** spec1 §9: tooltips open after 1000 ms. */
const TOOLTIP_DELAY_MS = 1000;
const theme = createTheme({
  primaryColor: 'indigo',
  components: { Tooltip: Tooltip.extend({ defaultProps: { openDelay: TOOLTIP_DELAY_MS } }) },
});
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

export const App = () => (
  <MantineProvider theme={theme} defaultColorScheme="auto">
    <Notifications position="top-right" />
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        <RouterProvider router={router} />
        <ReloginDialog />
      </ModalsProvider>
    </QueryClientProvider>
  </MantineProvider>
);
