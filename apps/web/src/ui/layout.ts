/** The height of the shell's header (px): toasts open below it, never over its controls. */
export const HEADER_HEIGHT = 56;
