/** Injected into index.html as `window.__APP_SETTINGS__`. */
export type AppSettings = {
  csrfCookieName: string;
  csrfHeaderName: string;
  /** Sign-in through the company's identity provider (OIDC_ISSUER set): the button's text; null when off. */
  oidcButtonText: string | null;
  /** PASSWORD_SIGN_IN=0: the password form is shown to administrators only (behind a link). */
  passwordSignIn: boolean;
};

export const DEFAULT_APP_SETTINGS: AppSettings = {
  csrfCookieName: 'csrftoken',
  csrfHeaderName: 'X-CSRFToken',
  oidcButtonText: null,
  passwordSignIn: true,
};
