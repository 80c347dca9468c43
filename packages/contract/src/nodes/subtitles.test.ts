import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subtitleFormatOf, subtitleParamsSchema } from './subtitles.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clock = (ms: number, separator: ',' | '.') =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;

type Cue = { start: number; length: number; text: string };
const cues = fc.array(
  fc.record({
    start: fc.nat(10 * 3_600_000),
    length: fc.integer({ min: 1, max: 60_000 }),
    // Cue text is any line that is not blank.
    text: fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== '' && !/[\r\n\0]/.test(t)),
  }),
  { minLength: 1, maxLength: 5 },
);
const srt = (list: Cue[], eol = '\n') =>
  list
    .map((cue, i) =>
      [String(i + 1), `${clock(cue.start, ',')} --> ${clock(cue.start + cue.length, ',')}`, cue.text].join(
        eol,
      ),
    )
    .join(eol + eol);
const vtt = (list: Cue[]) =>
  `WEBVTT\n\n${list.map((cue) => `${clock(cue.start, '.')} --> ${clock(cue.start + cue.length, '.')}\n${cue.text}`).join('\n\n')}\n`;

describe('subtitle files by content', () => {
  it('tells SubRip and WebVTT files apart, with or without a byte order mark and CRLF line ends', () => {
    fc.assert(
      fc.property(cues, fc.boolean(), fc.boolean(), (list, bom, crlf) => {
        const mark = bom ? '\uFEFF' : '';
        expect(subtitleFormatOf(bytes(mark + srt(list, crlf ? '\r\n' : '\n')))).toBe('srt');
        expect(subtitleFormatOf(bytes(mark + vtt(list)))).toBe('vtt');
      }),
    );
  });

  it('reads a WebVTT header with text after it and cues without hours', () => {
    expect(subtitleFormatOf(bytes('WEBVTT - Interview\n\n00:01.000 --> 00:02.500\nHello\n'))).toBe('vtt');
  });

  it('refuses what is not subtitle text: other text, a header without cues, NUL, Latin-1, binary', () => {
    for (const text of [
      '',
      'hello world',
      'WEBVTT\n\nNOTE nothing to show\n',
      'WEBVTTX\n\n00:01.000 --> 00:02.000\nHi\n',
      '1\nHello\n00:00:01,000 --> 00:00:02,000\n',
      '1\n00:00:01,000 --> 00:00:02,000\nnul \0 inside\n',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    ])
      expect(subtitleFormatOf(bytes(text)), JSON.stringify(text)).toBeNull();
    // 'é' in Latin-1 is not UTF-8.
    const latin1 = Uint8Array.from([...bytes('1\n00:00:01,000 --> 00:00:02,000\nCaf'), 0xe9, 0x0a]);
    expect(subtitleFormatOf(latin1)).toBeNull();
    expect(subtitleFormatOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
  });

  it('never throws on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (content) => {
        expect([null, 'srt', 'vtt']).toContain(subtitleFormatOf(content));
      }),
    );
  });

  it('takes the languages of the burn-subtitles module in the path, and no other', () => {
    expect(subtitleParamsSchema.parse({ id: '12', language: 'nb' })).toEqual({ id: 12, language: 'nb' });
    expect(subtitleParamsSchema.safeParse({ id: '12', language: 'sv' }).success).toBe(false);
  });
});
