import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import {
  type AnchorProps,
  type CSSVariablesResolver,
  createTheme,
  darken,
  type LoaderProps,
  MantineProvider,
  type ModalProps,
  type PopoverProps,
  type TooltipProps,
} from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { LAYERS } from '@media/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router';
import { ApiError, reauth, relogin } from '../api/client.ts';
import { Deferred, lazyNamed } from '../ui/deferred.tsx';
import { modalsWanted } from '../ui/modals-ready.ts';
import { ReauthDialog } from './reauth-dialog.ts';
import { ReloginDialog } from './relogin-dialog.ts';
import { router } from './router.tsx';

/** spec1 §9: tooltips open after 1000 ms. */
const TOOLTIP_DELAY_MS = 1000;
/** spec3 §9: every modal's backdrop and window layers. */
const MODAL_LAYERS = { zIndex: LAYERS.modalWindow, overlayProps: { zIndex: LAYERS.modalBackdrop } };
// Plain entries rather than Tooltip.extend() and the like: those would pull the components into the shell.
// WCAG AA contrast (4.5:1, checked by axe-core in the e2e run): indigo's 8th shade and darker dimmed text
// on white, lighter dimmed text on dark; links in running text are underlined, not told by colour alone.
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  components: {
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    Tooltip: {
      defaultProps: { openDelay: TOOLTIP_DELAY_MS, zIndex: LAYERS.tooltip } satisfies Partial<TooltipProps>,
    },
    Modal: { defaultProps: MODAL_LAYERS satisfies Partial<ModalProps> },
    Popover: { defaultProps: { zIndex: LAYERS.popover } satisfies Partial<PopoverProps> },
    // A loader names what loads (aria-label): as a status, which a label is allowed on (axe: not on a bare span).
    Loader: { defaultProps: { role: 'status' } satisfies Partial<LoaderProps> },
  },
});
/** A read the server refused or could not find (4xx) gets the same answer again: only failures are retried. */
const QUERY_RETRIES = 3;
const retryRead = (count: number, error: Error) =>
  !(error instanceof ApiError && error.status < 500) && count < QUERY_RETRIES;

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: retryRead } },
});

const Toasts = lazyNamed(async () => (await import('./Toasts.tsx')).Toasts);
const ModalsHost = lazyNamed(async () => (await import('./ModalsHost.tsx')).ModalsHost);

/**
 * Mounts its children once `wanted` first holds, and keeps them: the toasts, the dialogs' manager and the
 * re-login dialog load when first needed, so the sign-in page fetches none of their code.
 */
const MountWhen = ({ wanted, children }: { wanted: boolean; children: ReactNode }) => {
  const [mounted, setMounted] = useState(wanted);
  if (wanted && !mounted) setMounted(true);
  return mounted ? <Deferred fallback={null}>{children}</Deferred> : null;
};

/** The toasts' container, once there is a toast (the store keeps those raised before it loads). */
const ToastsWhenAny = () => {
  const { notifications, queue } = useNotifications();
  return (
    <MountWhen wanted={notifications.length + queue.length > 0}>
      <Toasts />
    </MountWhen>
  );
};

/** The dialogs' manager, once a dialog asks for it (ui/modals-ready.ts). */
const ModalsWhenAsked = () => (
  <MountWhen wanted={useSyncExternalStore(modalsWanted.subscribe, modalsWanted.get)}>
    <ModalsHost />
  </MountWhen>
);

/** The re-login dialog, once a request needs it; the signed-in frame fetches its code early (Shell). */
const Relogin = () => (
  <MountWhen wanted={useSyncExternalStore(relogin.subscribe, relogin.getState).open}>
    <ReloginDialog />
  </MountWhen>
);

/** The "Confirm it's you" prompt, once a sensitive change asks for it. */
const Reauth = () => (
  <MountWhen wanted={useSyncExternalStore(reauth.subscribe, reauth.getState).open}>
    <ReauthDialog />
  </MountWhen>
);

/** Text on light badges and coloured text reach 4.5:1 on their backgrounds in the light scheme. */
const contrastVariables: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': darken(resolved.colors.red[9], 0.25),
    ...Object.fromEntries(
      Object.entries(resolved.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light-color`, darken(shades[9], 0.35)],
        [`--mantine-color-${name}-text`, darken(shades[9], 0.25)],
      ]),
    ),
  },
  dark: { '--mantine-color-dimmed': '#a0a0a0' },
});

export const App = () => (
  <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={contrastVariables}>
    <ToastsWhenAny />
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ModalsWhenAsked />
      <Relogin />
      <Reauth />
    </QueryClientProvider>
  </MantineProvider>
);
