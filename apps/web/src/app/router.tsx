import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from './NotFoundPage.tsx';
import { Shell } from './Shell.tsx';

export const router = createBrowserRouter([
  {
    path: '/login',
    lazy: async () => ({ Component: (await import('../features/auth/SignInPage.tsx')).SignInPage }),
  },
  {
    path: '/users/user_settings/:userId',
    lazy: async () => ({
      Component: (await import('../features/users/UserSettingsRoute.tsx')).UserSettingsRoute,
    }),
  },
  {
    path: '/',
    Component: Shell,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./HomePage.tsx')).HomePage }) },
      {
        path: 'admin/passwordRules',
        lazy: async () => ({
          Component: (await import('../features/admin/PasswordRulesPage.tsx')).PasswordRulesPage,
        }),
      },
      {
        path: 'admin/lockouts',
        lazy: async () => ({ Component: (await import('../features/admin/LockoutsPage.tsx')).LockoutsPage }),
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
