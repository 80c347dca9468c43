import { type AppSettings, DEFAULT_APP_SETTINGS } from '@media/contract';

declare global {
  interface Window {
    __APP_SETTINGS__?: Partial<AppSettings>;
  }
}

/** Page settings the server injects into index.html; defaults when the page is served by Vite. */
export const appSettings = (): AppSettings => ({
  ...DEFAULT_APP_SETTINGS,
  ...(typeof window === 'undefined' ? {} : window.__APP_SETTINGS__),
});
