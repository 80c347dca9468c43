import { describe, expect, it } from 'vitest';
import {
  filtersValue,
  kindsOfMode,
  readFilter,
  readMode,
  readThumbSize,
  thumbnailBox,
} from './queue-address.ts';

describe('the address of an ingest queue page', () => {
  it('reads the three modes and nothing else', () => {
    expect(readMode('files')).toBe('files');
    expect(readMode('streams')).toBe('streams');
    expect(readMode('unprocessed')).toBe('unprocessed');
    expect(readMode('everything')).toBeUndefined();
    expect(readMode(null)).toBeUndefined();
  });

  it('reads thumbsize as a scale, 1.0 when absent or not a number, kept within bounds', () => {
    expect(readThumbSize('1.0')).toBe(1);
    expect(readThumbSize(null)).toBe(1);
    expect(readThumbSize('huge')).toBe(1);
    expect(readThumbSize('2.5')).toBe(2.5);
    expect(readThumbSize('40')).toBe(4);
    expect(readThumbSize('0.01')).toBe(0.25);
  });

  it("splits an edge link's filter into statuses and kinds, dropping unknown words", () => {
    expect(readFilter('queued|streams|bogus')).toEqual({ statuses: ['queued'], kinds: ['streams'] });
    expect(readFilter(null)).toEqual({ statuses: [], kinds: [] });
  });

  it('asks for files, or streams with their schedules, by mode', () => {
    expect(filtersValue(['failed'], kindsOfMode('files', []))).toBe('failed|files');
    expect(filtersValue([], kindsOfMode('streams', []))).toBe('streams|schedules');
    expect(filtersValue(['queued'], kindsOfMode(undefined, ['streams']))).toBe('queued|streams');
    expect(filtersValue([], kindsOfMode(undefined, []))).toBe('');
  });

  it('shows streams with larger 16:9 thumbnails, scaled by thumbsize', () => {
    expect(thumbnailBox('files', 1)).toEqual({ width: 64, height: 36 });
    expect(thumbnailBox('streams', 1)).toEqual({ width: 128, height: 72 });
    expect(thumbnailBox(undefined, 2)).toEqual({ width: 128, height: 72 });
  });
});
