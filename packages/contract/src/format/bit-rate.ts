const RATE_UNITS = ['bps', 'kbps', 'Mbps', 'Gbps', 'Tbps', 'Pbps'] as const;

/** spec3 §9: bps to Pbps, base 1024, one decimal by default. */
export const formatBitRate = (bitsPerSecond: number, decimals = 1) => {
  let scaled = Number.isFinite(bitsPerSecond) && bitsPerSecond > 0 ? bitsPerSecond : 0;
  let unit = 0;
  while (scaled >= 1024 && unit < RATE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${scaled.toFixed(decimals)} ${RATE_UNITS[unit]}`;
};
