const SIZE_UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;
const PB = 1024 ** 5;

/** spec3 §9: bytes, kB, MB, GB, TB, PB (base 1024) with two decimals above bytes; above 1024 PB '>1024 PB'. */
export const formatFileSize = (bytes: number) => {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (value > 1024 * PB) return '>1024 PB';
  if (value < 1024) return `${Math.floor(value)} bytes`;
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < SIZE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${scaled.toFixed(2)} ${SIZE_UNITS[unit]}`;
};
