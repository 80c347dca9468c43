import { lazyNamed } from '../ui/deferred.tsx';

/**
 * The re-login dialog's code, loaded on demand (App) and fetched early by the signed-in frame (Shell): by the
 * time a session ends, a new deployment may have replaced this build's files.
 */
export const ReloginDialog = lazyNamed(async () => (await import('./ReloginDialog.tsx')).ReloginDialog);
