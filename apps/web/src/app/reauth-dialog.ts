import { lazyNamed } from '../ui/deferred.tsx';

/**
 * The "Confirm it's you" prompt's code, loaded on demand (App) and fetched early by the signed-in frame
 * (Shell), as the re-login dialog's is.
 */
export const ReauthDialog = lazyNamed(async () => (await import('./ReauthDialog.tsx')).ReauthDialog);
