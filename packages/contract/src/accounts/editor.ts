/** Editor front-end versions, skins and launch modes an administrator can choose per account. */
export const EDITOR_VERSIONS = ['stable', 'previous', 'beta'] as const;
export const SKIN_BY_SITE = 'By Site';
export const EDITOR_SKINS = [SKIN_BY_SITE, 'Light', 'Dark', 'High contrast'] as const;
export const LAUNCH_MODES = ['Same tab', 'New tab', 'New window'] as const;
export const DEFAULT_EDIT_MODE = 'inherit';
export const EDIT_MODES = [DEFAULT_EDIT_MODE, 'edit', 'log', 'view'] as const;
