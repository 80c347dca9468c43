import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INGEST_STATUSES } from '../ingest/ingest.ts';
import { accountDashboardPath } from './dashboard.ts';
import { DIAGNOSTIC_SLOW_MS, type DiagnosticState } from './diagnostics.ts';
import {
  checkState,
  countsFor,
  diskState,
  diskUsedShare,
  parseToolVersion,
  smtpServerLabel,
  worstState,
} from './rules.ts';

describe('diagnostic rules', () => {
  it('reads the version ffmpeg and ffprobe print first', () => {
    expect(
      parseToolVersion(
        'ffmpeg',
        'ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024 the FFmpeg developers\n',
      ),
    ).toBe('5.1.6-0+deb12u1');
    expect(parseToolVersion('ffprobe', '\nffprobe version n7.0 Copyright\nbuilt with gcc')).toBe('n7.0');
    expect(parseToolVersion('ffmpeg', 'ffprobe version 5.1 Copyright')).toBeUndefined();
    expect(parseToolVersion('ffmpeg', 'command not found')).toBeUndefined();
    expect(parseToolVersion('ffmpeg', 'built with gcc\nffmpeg version 5.1')).toBeUndefined();
  });

  it('calls a failed check an error and a slow one a warning', () => {
    expect(checkState(false, 3)).toBe('error');
    expect(checkState(false, null)).toBe('error');
    expect(checkState(true, null)).toBe('ok');
    expect(checkState(true, DIAGNOSTIC_SLOW_MS)).toBe('ok');
    expect(checkState(true, DIAGNOSTIC_SLOW_MS + 1)).toBe('warning');
  });

  it('measures the used share of a disk and warns when little is free', () => {
    expect(diskUsedShare(25, 100)).toBe(0.75);
    expect(diskUsedShare(0, 0)).toBe(0);
    expect(diskUsedShare(200, 100)).toBe(0);
    expect(diskState(50, 100)).toBe('ok');
    expect(diskState(10, 100)).toBe('ok');
    expect(diskState(9, 100)).toBe('warning');
    expect(diskState(1, 100)).toBe('error');
    expect(diskState(0, 0)).toBe('warning');
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (free, total) => {
        const share = diskUsedShare(free, total);
        return share >= 0 && share <= 1;
      }),
    );
  });

  it('takes the worst of several states', () => {
    expect(worstState([])).toBe('ok');
    expect(worstState(['ok', 'warning', 'ok'])).toBe('warning');
    expect(worstState(['warning', 'error', 'ok'])).toBe('error');
    const state = fc.constantFrom<DiagnosticState>('ok', 'warning', 'error');
    fc.assert(
      fc.property(fc.array(state), fc.array(state), (a, b) => {
        // Order does not matter, and adding states never makes it better.
        const both = worstState([...a, ...b]);
        return both === worstState([...b, ...a]) && worstState([both, worstState(a)]) === both;
      }),
    );
  });

  it('gives one count per key in the keys order, zero for the missing and none for unknown keys', () => {
    expect(
      countsFor(
        INGEST_STATUSES,
        [
          { key: 'failed', count: 2 },
          { key: 'queued', count: 5 },
          { key: 'bogus', count: 9 },
        ],
        'status',
      ),
    ).toEqual(
      INGEST_STATUSES.map((status) => ({ status, count: { queued: 5, failed: 2 }[status as string] ?? 0 })),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'z'), count: fc.nat(1000) })),
        (found) => {
          const counts = countsFor(['a', 'b', 'c'] as const, found, 'type');
          const expected = found.filter((row) => row.key !== 'z').reduce((sum, row) => sum + row.count, 0);
          return (
            counts.map((row) => row.type).join() === 'a,b,c' &&
            counts.reduce((sum, row) => sum + row.count, 0) === expected
          );
        },
      ),
    );
  });

  it('shows an SMTP server without its user or password', () => {
    expect(smtpServerLabel('smtps://user:secret@mail.example.com:465')).toBe('mail.example.com:465');
    expect(smtpServerLabel('smtp://mail.example.com')).toBe('mail.example.com');
    expect(smtpServerLabel('not a url')).toBe('an SMTP server');
  });

  it("links an account's dashboard by its name", () => {
    expect(accountDashboardPath('evening-news')).toBe('/accounts/evening-news/dashboard');
    expect(accountDashboardPath('a b')).toBe('/accounts/a%20b/dashboard');
  });
});
