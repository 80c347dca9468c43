import { countOf } from './pluralise.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');
const wholeSeconds = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0);

/** spec3 §9: under 60 s as 'Ns', then 'm:ss' followed by 's', then 'h:mm' followed by 'm'. */
export const durationFilter = (seconds: number) => {
  const total = wholeSeconds(seconds);
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}:${pad2(total % 60)}s`;
  return `${Math.floor(total / 3600)}:${pad2(Math.floor((total % 3600) / 60))}m`;
};

const UNITS = [
  { seconds: 86_400, word: 'day', terse: 'd' },
  { seconds: 3_600, word: 'hour', terse: 'h' },
  { seconds: 60, word: 'minute', terse: 'm' },
  { seconds: 1, word: 'second', terse: 's' },
] as const;

/**
 * spec3 §9: days, hours, minutes and seconds, or the terse d, h, m, s; decimal hours with one decimal;
 * an empty result reads '0 minutes'.
 */
export const formatDuration = (
  seconds: number,
  options: { terse?: boolean; decimalHours?: boolean } = {},
) => {
  const total = wholeSeconds(seconds);
  if (options.decimalHours) {
    if (total === 0) return '0 minutes';
    const hours = (total / 3600).toFixed(1);
    return options.terse ? `${hours}h` : `${hours} ${hours === '1.0' ? 'hour' : 'hours'}`;
  }
  let rest = total;
  const parts: string[] = [];
  for (const unit of UNITS) {
    const amount = Math.floor(rest / unit.seconds);
    rest -= amount * unit.seconds;
    if (amount > 0) parts.push(options.terse ? `${amount}${unit.terse}` : countOf(amount, unit.word));
  }
  return parts.length > 0 ? parts.join(' ') : '0 minutes';
};
