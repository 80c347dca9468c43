import { formatDate } from './dates.ts';
import { countOf } from './pluralise.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * spec3 §9: under a minute in seconds, under an hour in minutes, under a day in hours, then 'tomorrow'
 * or 'yesterday', under 7 days as 'N days', otherwise the full date; 'in X' ahead, 'X ago' behind.
 */
export const naturalDate = (date: Date, now: Date = new Date()) => {
  const diff = date.getTime() - now.getTime();
  const distance = Math.abs(diff);
  const relative = (text: string) => (diff >= 0 ? `in ${text}` : `${text} ago`);
  if (distance < MINUTE) return relative(countOf(Math.floor(distance / 1000), 'second'));
  if (distance < HOUR) return relative(countOf(Math.floor(distance / MINUTE), 'minute'));
  if (distance < DAY) return relative(countOf(Math.floor(distance / HOUR), 'hour'));
  if (distance < 2 * DAY) return diff >= 0 ? 'tomorrow' : 'yesterday';
  if (distance < 7 * DAY) return relative(countOf(Math.floor(distance / DAY), 'day'));
  return formatDate(date);
};
