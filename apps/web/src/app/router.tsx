import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from './NotFoundPage.tsx';
import { PageLoader } from './PageLoader.tsx';

// Pages load on first visit; while the first page of a visit loads, its route shows the loader
// (HydrateFallback) instead of a blank page.
export const router = createBrowserRouter([
  {
    path: '/login',
    HydrateFallback: PageLoader,
    lazy: async () => ({ Component: (await import('../features/auth/SignInPage.tsx')).SignInPage }),
  },
  {
    path: '/reauth/done',
    HydrateFallback: PageLoader,
    lazy: async () => ({ Component: (await import('../features/auth/ReauthDonePage.tsx')).ReauthDonePage }),
  },
  {
    path: '/users/user_settings/:userId',
    HydrateFallback: PageLoader,
    lazy: async () => ({
      Component: (await import('../features/users/UserSettingsRoute.tsx')).UserSettingsRoute,
    }),
  },
  {
    path: '/invite/:token',
    HydrateFallback: PageLoader,
    lazy: async () => ({
      Component: (await import('../features/invitation/InvitationPage.tsx')).InvitationPage,
    }),
  },
  {
    // The embedded video player (spec3 §2) fills the floating player's frame: no shell around it.
    path: '/accounts/:accountId/reactvideoplayer',
    HydrateFallback: PageLoader,
    lazy: async () => ({
      Component: (await import('../features/player/EmbeddedPlayerPage.tsx')).EmbeddedPlayerPage,
    }),
  },
  {
    path: '/',
    // The frame of the signed-in pages (AppShell, navigation) is not needed by the sign-in page; it loads
    // with the first signed-in page, in parallel with that page's own chunk.
    lazy: async () => ({ Component: (await import('./Shell.tsx')).Shell }),
    HydrateFallback: PageLoader,
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
      {
        path: 'admin/sessions',
        lazy: async () => ({ Component: (await import('../features/admin/SessionsPage.tsx')).SessionsPage }),
      },
      {
        path: 'admin/activity',
        lazy: async () => ({ Component: (await import('../features/audit/ActivityPage.tsx')).ActivityPage }),
      },
      {
        path: 'admin/webhooks',
        lazy: async () => ({
          Component: (await import('../features/webhooks/WebhooksPages.tsx')).CloudWebhooksPage,
        }),
      },
      {
        path: 'admin/organisation',
        lazy: async () => ({
          Component: (await import('../features/organisation/OrganisationPage.tsx')).OrganisationPage,
        }),
      },
      {
        path: 'admin/managers',
        lazy: async () => ({
          Component: (await import('../features/managers/AdminManagersPage.tsx')).AdminManagersPage,
        }),
      },
      {
        path: 'diagnostic',
        lazy: async () => ({
          Component: (await import('../features/diagnostics/DiagnosticPage.tsx')).DiagnosticPage,
        }),
      },
      {
        path: 'accounts/:accountName/dashboard',
        lazy: async () => ({
          Component: (await import('../features/dashboard/AccountDashboardPage.tsx')).AccountDashboardPage,
        }),
      },
      {
        path: 'site/:siteId',
        lazy: async () => ({ Component: (await import('../features/organisation/SitePage.tsx')).SitePage }),
      },
      {
        path: 'accounts',
        lazy: async () => ({
          Component: (await import('../features/accounts/AccountsPage.tsx')).AccountsPage,
        }),
      },
      {
        path: 'accounts/:accountName',
        lazy: async () => ({
          Component: (await import('../features/accounts/AccountSettingsPage.tsx')).AccountSettingsPage,
        }),
      },
      {
        path: 'accounts/:accountName/users',
        lazy: async () => ({
          Component: (await import('../features/account-users/AccountUsersPage.tsx')).AccountUsersPage,
        }),
      },
      {
        path: 'accounts/:accountName/media',
        lazy: async () => ({
          Component: (await import('../features/media/MediaManagerPage.tsx')).MediaManagerPage,
        }),
      },
      {
        path: 'accounts/:accountName/media/grid',
        lazy: async () => ({
          Component: (await import('../features/media/MediaManagerPage.tsx')).MediaGridPage,
        }),
      },
      {
        path: 'accounts/:accountName/publishing',
        lazy: async () => ({
          Component: (await import('../features/publishing/PublishingPages.tsx')).AccountPublishingPage,
        }),
      },
      {
        path: 'site/:siteId/publishing',
        lazy: async () => ({
          Component: (await import('../features/publishing/PublishingPages.tsx')).SitePublishingPage,
        }),
      },
      {
        path: 'publishes/:publishId/help',
        lazy: async () => ({
          Component: (await import('../features/publishing/PublishHelpPage.tsx')).PublishHelpPage,
        }),
      },
      {
        path: 'accounts/:accountName/integrations',
        lazy: async () => ({
          Component: (await import('../features/webhooks/WebhooksPages.tsx')).AccountIntegrationsPage,
        }),
      },
      {
        path: 'accounts/:accountName/webupload',
        lazy: async () => ({
          Component: (await import('../features/uploads/WebUploadPage.tsx')).WebUploadPage,
        }),
      },
      {
        path: 'accounts/:accountName/metaupload',
        lazy: async () => ({
          Component: (await import('../features/uploads/MetadataUploadPage.tsx')).MetadataUploadPage,
        }),
      },
      {
        path: 'users/:userId/edge',
        lazy: async () => ({
          Component: (await import('../features/edge/EdgeServersPages.tsx')).UserEdgeServersPage,
        }),
      },
      {
        path: 'admin/edge',
        lazy: async () => ({
          Component: (await import('../features/edge/EdgeServersPages.tsx')).AdminEdgeServersPage,
        }),
      },
      {
        path: 'edge/:edgeServerId/services',
        lazy: async () => ({
          Component: (await import('../features/edge/ServicesPage.tsx')).ServicesPage,
        }),
      },
      {
        path: 'edge/:edgeServerId/services/:serviceId/endpoints',
        lazy: async () => ({
          Component: (await import('../features/edge/EndpointsPage.tsx')).EndpointsPage,
        }),
      },
      {
        path: 'accounts/:accountId/arrivals',
        lazy: async () => ({
          Component: (await import('../features/arrivals/ArrivalsPage.tsx')).ArrivalsPage,
        }),
      },
      ...[
        'edge/:edgeServerId',
        'edge/:edgeServerId/services/:serviceId/endpoints/:endpointId',
        'accounts/:accountId/arrivals/:arrivalsFolderId',
        'accounts/:accountId',
      ].map((base) => ({
        path: `${base}/ingestQueue`,
        lazy: async () => ({
          Component: (await import('../features/ingest/IngestQueuePage.tsx')).IngestQueuePage,
        }),
      })),
      {
        path: 'edge/:edgeServerId/unprocessedFiles',
        lazy: async () => ({
          Component: (await import('../features/ingest/UnprocessedFilesPage.tsx')).UnprocessedFilesPage,
        }),
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
