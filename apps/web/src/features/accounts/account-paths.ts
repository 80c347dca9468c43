/** The page of an account's settings (a module of its own: pages link to it without loading the accounts table). */
export const accountSettingsPath = (name: string) => `/accounts/${encodeURIComponent(name)}/`;
