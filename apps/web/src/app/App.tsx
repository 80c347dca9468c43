import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ReloginDialog } from './ReloginDialog.tsx';
import { router } from './router.tsx';

const theme = createTheme({ primaryColor: 'indigo' });
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
