import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReservedName, RESERVED_FIRST_PATH_SEGMENTS } from '../names/reserved.ts';
import { formatBitRate } from './bit-rate.ts';
import { formatCount } from './count.ts';
import {
  formatDate,
  formatDateTime,
  formatNodeDate,
  formatPickerDate,
  formatTableDate,
  formatTime,
  parsePickerDate,
} from './dates.ts';
import { durationFilter, formatDuration } from './duration.ts';
import { formatFileSize } from './file-size.ts';
import { naturalDate } from './natural-date.ts';
import { pluralise } from './pluralise.ts';

describe('duration filter and formatter (spec3 §9)', () => {
  it('shows seconds, then m:ss s, then h:mm m', () => {
    expect(durationFilter(5)).toBe('5s');
    expect(durationFilter(65)).toBe('1:05s');
    expect(durationFilter(3725)).toBe('1:02m');
    expect(durationFilter(-3)).toBe('0s');
    expect(durationFilter(Number.NaN)).toBe('0s');
  });

  it('spells out days, hours, minutes and seconds, tersely on request, and 0 minutes when empty', () => {
    expect(formatDuration(90061)).toBe('1 day 1 hour 1 minute 1 second');
    expect(formatDuration(2 * 86400 + 120)).toBe('2 days 2 minutes');
    expect(formatDuration(90061, { terse: true })).toBe('1d 1h 1m 1s');
    expect(formatDuration(0)).toBe('0 minutes');
    expect(formatDuration(5400, { decimalHours: true })).toBe('1.5 hours');
    expect(formatDuration(5400, { decimalHours: true, terse: true })).toBe('1.5h');
  });

  it('adds its terse parts back up to the whole seconds', () => {
    const factor = { d: 86400, h: 3600, m: 60, s: 1 } as const;
    fc.assert(
      fc.property(fc.nat(10_000_000), (seconds) => {
        const text = formatDuration(seconds, { terse: true });
        if (seconds === 0) return text === '0 minutes';
        const sum = text
          .split(' ')
          .reduce(
            (acc, part) => acc + Number(part.slice(0, -1)) * factor[part.at(-1) as keyof typeof factor],
            0,
          );
        return sum === seconds;
      }),
    );
  });
});

describe('file sizes and bit rates (spec3 §9)', () => {
  it('formats file sizes in base 1024 with two decimals above bytes', () => {
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(1536)).toBe('1.50 kB');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatFileSize(1024 ** 5)).toBe('1.00 PB');
    expect(formatFileSize(1025 * 1024 ** 5)).toBe('>1024 PB');
  });

  it('never goes down a unit as the size grows', () => {
    const units = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB', '>1024'];
    const rank = (text: string) => units.findIndex((u) => text.includes(u));
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2 ** 62, noNaN: true }),
        fc.double({ min: 0, max: 2 ** 62, noNaN: true }),
        (a, b) => {
          const [small, large] = a <= b ? [a, b] : [b, a];
          return rank(formatFileSize(small)) <= rank(formatFileSize(large));
        },
      ),
    );
  });

  it('formats bit rates in base 1024 with one decimal by default', () => {
    expect(formatBitRate(800)).toBe('800.0 bps');
    expect(formatBitRate(1536)).toBe('1.5 kbps');
    expect(formatBitRate(10 * 1024 ** 2, 0)).toBe('10 Mbps');
    expect(formatBitRate(3 * 1024 ** 5)).toBe('3.0 Pbps');
  });
});

describe('natural dates (spec3 §9)', () => {
  const now = new Date(2026, 10, 22, 12, 0, 0);
  const at = (ms: number) => new Date(now.getTime() + ms);
  it('speaks in seconds, minutes, hours, tomorrow/yesterday and days, then the date', () => {
    expect(naturalDate(at(-30_000), now)).toBe('30 seconds ago');
    expect(naturalDate(at(5 * 60_000), now)).toBe('in 5 minutes');
    expect(naturalDate(at(-60_000), now)).toBe('1 minute ago');
    expect(naturalDate(at(3 * 3_600_000), now)).toBe('in 3 hours');
    expect(naturalDate(at(-30 * 3_600_000), now)).toBe('yesterday');
    expect(naturalDate(at(30 * 3_600_000), now)).toBe('tomorrow');
    expect(naturalDate(at(-3 * 86_400_000), now)).toBe('3 days ago');
    expect(naturalDate(at(-10 * 86_400_000), now)).toBe('12 Nov 2026');
  });

  it('says "ago" for the past and "in" for the future within a week', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 6 * 86_400_000 }), (ms) => {
        const past = naturalDate(at(-ms), now);
        const future = naturalDate(at(ms), now);
        return (
          (past.endsWith(' ago') || past === 'yesterday') &&
          (future.startsWith('in ') || future === 'tomorrow')
        );
      }),
    );
  });
});

describe('pluralise (spec1 §9)', () => {
  it("adds 's' unless the word ends in 's'", () => {
    expect(pluralise('account')).toBe('accounts');
    expect(pluralise('status')).toBe('status');
    expect(pluralise('account', 1)).toBe('account');
  });
});

describe('date formats (spec1 §9, spec3 §9)', () => {
  const date = new Date(2026, 2, 5, 14, 7, 9);
  it('formats each pattern', () => {
    expect(formatDateTime(date)).toBe('5 Mar 2026, 02:07:09 pm');
    expect(formatDateTime(new Date(2026, 2, 5, 0, 5, 0))).toBe('5 Mar 2026, 12:05:00 am');
    expect(formatDate(date)).toBe('5 Mar 2026');
    expect(formatTableDate(date)).toBe('Mar 05 2026 14:07');
    expect(formatNodeDate(date)).toBe('05/03/2026');
    expect(formatPickerDate(date)).toBe('2026-03-05');
  });

  it('reads picker dates and refuses days that do not exist', () => {
    expect(parsePickerDate('2026-02-29')).toBeUndefined();
    expect(parsePickerDate('2028-02-29')?.getDate()).toBe(29);
    expect(parsePickerDate('05/03/2026')).toBeUndefined();
  });

  it('round-trips every calendar day through the picker format', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(1900, 0, 1), max: new Date(2199, 11, 31), noInvalidDate: true }),
        (d) => {
          const back = parsePickerDate(formatPickerDate(d));
          return (
            back !== undefined &&
            back.getFullYear() === d.getFullYear() &&
            back.getMonth() === d.getMonth() &&
            back.getDate() === d.getDate()
          );
        },
      ),
    );
  });

  it('formats times with two-digit padding, 12 h with meridian or 24 h', () => {
    expect(formatTime(0, 5, { meridian: true })).toBe('12:05 am');
    expect(formatTime(13, 0, { meridian: true })).toBe('01:00 pm');
    expect(formatTime(9, 30, { meridian: false })).toBe('09:30');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (h, m) =>
          /^\d{2}:\d{2}$/.test(formatTime(h, m, { meridian: false })) &&
          /^(0[1-9]|1[0-2]):\d{2} (am|pm)$/.test(formatTime(h, m, { meridian: true })),
      ),
    );
  });
});

describe('reserved names (spec3 §5)', () => {
  it('refuses the reserved first path segments in any case', () => {
    expect(isReservedName('Admin')).toBe(true);
    expect(isReservedName(' api ')).toBe(true);
    expect(isReservedName('evening-news')).toBe(false);
    expect(RESERVED_FIRST_PATH_SEGMENTS).toEqual(expect.arrayContaining(['mfaenrol', 'sitegroup', 'cc']));
  });
});

describe('count formatter', () => {
  it('groups thousands, and marks a capped count as a lower bound', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(9_999)).toBe('9,999');
    expect(formatCount(10_000)).toBe('10,000');
    expect(formatCount(10_000, true)).toBe('10,000+');
    expect(formatCount(1_234_567, false)).toBe('1,234,567');
  });
});
