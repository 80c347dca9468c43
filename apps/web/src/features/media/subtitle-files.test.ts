import { SUBTITLE_MAX_BYTES, SUBTITLE_MESSAGES } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { describeSubtitle, readSubtitleFile, subtitleRows } from './subtitle-files.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the subtitles panel', () => {
  it('lists every language in order, with the file the media has in it', () => {
    const rows = subtitleRows([
      { language: 'fr', format: 'vtt', size: 2100, updatedTime: '2026-01-01T00:00:00Z' },
    ]);
    expect(rows.map((row) => [row.language, row.name, describeSubtitle(row)])).toEqual([
      ['en', 'English', 'None'],
      ['fr', 'French', 'WebVTT, 2.05 kB'],
      ['de', 'German', 'None'],
      ['es', 'Spanish', 'None'],
      ['nb', 'Norwegian', 'None'],
    ]);
  });

  it('reads a SubRip or WebVTT file, and refuses anything else or anything over 1 MB before sending', () => {
    expect(readSubtitleFile(bytes('1\n00:00:01,000 --> 00:00:02,000\nHi\n'))).toEqual({
      format: 'srt',
      content: '1\n00:00:01,000 --> 00:00:02,000\nHi\n',
    });
    expect(readSubtitleFile(bytes('WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n'))).toMatchObject({
      format: 'vtt',
    });
    expect(readSubtitleFile(bytes('a shopping list'))).toEqual({ problem: SUBTITLE_MESSAGES.notSubtitles });
    const large = bytes(`1\n00:00:01,000 --> 00:00:02,000\n${'x'.repeat(SUBTITLE_MAX_BYTES)}`);
    expect(readSubtitleFile(large)).toEqual({ problem: SUBTITLE_MESSAGES.tooLarge });
  });
});
