import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ReloginDialog } from './ReloginDialog.tsx';
import { router } from './router.tsx';

const theme = createTheme({ primaryColor: 'indigo' });
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

export const App = () => (
  <MantineProvider theme={theme} defaultColorScheme="auto">
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ReloginDialog />
    </QueryClientProvider>
  </MantineProvider>
);
