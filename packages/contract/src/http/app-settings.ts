/** Injected into index.html as `window.__APP_SETTINGS__`. */
export type AppSettings = {
  csrfCookieName: string;
  csrfHeaderName: string;
};

export const DEFAULT_APP_SETTINGS: AppSettings = {
  csrfCookieName: 'csrftoken',
  csrfHeaderName: 'X-CSRFToken',
};
