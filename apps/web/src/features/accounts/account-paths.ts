/** The page of an account's settings (a module of its own: pages link to it without loading the accounts table). */
export const accountSettingsPath = (name: string) => `/accounts/${encodeURIComponent(name)}/`;

/** The media manager of an account (spec3 §2). */
export const accountMediaPath = (name: string) => `${accountSettingsPath(name)}media`;
