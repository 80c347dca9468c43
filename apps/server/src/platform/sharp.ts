import type SharpModule from 'sharp';

/**
 * sharp, loaded when an image is first read: its native module cost every start ~0.3 s of CPU (2026-11-29),
 * and most starts read no image.
 */
export const sharp = async (...args: Parameters<typeof SharpModule>) =>
  (await import('sharp')).default(...args);
