export const SERVER_BUNDLE: string;
export const serverBundleIsStale: () => boolean;
export const buildServer: () => Promise<void>;
