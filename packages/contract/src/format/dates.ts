/**
 * The date formats of spec1 §9 and spec3 §9, locale en-GB, in the local time of the Date.
 * Written out rather than through a date library: five fixed patterns, no parsing of free text.
 */
export const DEFAULT_LOCALE = 'en-GB';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad2 = (n: number) => String(n).padStart(2, '0');
const month = (date: Date) => MONTHS[date.getMonth()] as string;

/** 'd MMM YYYY, hh:mm:ss a': '5 Mar 2026, 02:07:09 pm'. */
export const formatDateTime = (date: Date) => {
  const hours12 = date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
  const meridian = date.getHours() < 12 ? 'am' : 'pm';
  return `${formatDate(date)}, ${pad2(hours12)}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())} ${meridian}`;
};

/** 'd MMM YYYY': '5 Mar 2026'. */
export const formatDate = (date: Date) => `${date.getDate()} ${month(date)} ${date.getFullYear()}`;

/** Table dates, 'MMM dd YYYY HH:mm': 'Mar 05 2026 14:07'. */
export const formatTableDate = (date: Date) =>
  `${month(date)} ${pad2(date.getDate())} ${date.getFullYear()} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;

/** Node dates, 'dd/MM/yyyy': '05/03/2026'. */
export const formatNodeDate = (date: Date) =>
  `${pad2(date.getDate())}/${pad2(date.getMonth() + 1)}/${date.getFullYear()}`;

/** Date picker, 'yyyy-MM-dd': '2026-03-05'. */
export const formatPickerDate = (date: Date) =>
  `${String(date.getFullYear()).padStart(4, '0')}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;

/** Reads 'yyyy-MM-dd' as a local date; undefined when it is not a real calendar day. */
export const parsePickerDate = (text: string): Date | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const [year, monthNumber, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, monthNumber - 1, day);
  date.setFullYear(year);
  return date.getFullYear() === year && date.getMonth() === monthNumber - 1 && date.getDate() === day
    ? date
    : undefined;
};

/** Time picker: hours 1–12 with am/pm, or 0–23; minutes 0–59; two-digit padding. */
export const formatTime = (hours: number, minutes: number, options: { meridian: boolean }) => {
  const h = ((Math.trunc(hours) % 24) + 24) % 24;
  const m = Math.min(59, Math.max(0, Math.trunc(minutes)));
  if (!options.meridian) return `${pad2(h)}:${pad2(m)}`;
  return `${pad2(h % 12 === 0 ? 12 : h % 12)}:${pad2(m)} ${h < 12 ? 'am' : 'pm'}`;
};
