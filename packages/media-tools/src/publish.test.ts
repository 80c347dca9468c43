import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burnSubtitles, runProcessStep, transcodeArguments, transcodeFile, watermarkFile } from './index.ts';
import { ffmpeg, ffprobe, greyFrame, testVideo } from './test-media.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);
const streams = (target: string) => ffprobe(target);
/** The picture of a frame (at `seconds`, 1 by default) as 64x36 grey bytes. */
const frame = (input: string, seconds = '1') => greyFrame(input, seconds, 64, 36);
/** The mean of a region's grey values. */
const mean = (a: Buffer, x0: number, x1: number, y0: number, y1: number) => {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += a[y * 64 + x] ?? 0;
  return sum / ((x1 - x0) * (y1 - y0));
};
/** How different a region (columns x0..x1, rows y0..y1) of two frames is, on average. */
const difference = (a: Buffer, b: Buffer, x0: number, x1: number, y0: number, y1: number) => {
  let sum = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) sum += Math.abs((a[y * 64 + x] ?? 0) - (b[y * 64 + x] ?? 0));
  return sum / ((x1 - x0) * (y1 - y0));
};

const makeInput = (picture: string, name: string) => testVideo(file(name), picture, { seconds: 2 });

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-publish-'));
  makeInput('smptebars=size=640x360:rate=25', 'in.mp4');
  // A busy picture, so a higher bit rate is spent (bars alone compress to nothing at any rate).
  makeInput('testsrc2=size=640x360:rate=25,noise=alls=30:allf=t', 'busy.mp4');
  // A known colour everywhere, so that any change of the picture shows.
  testVideo(file('grey.mp4'), 'color=c=gray:size=640x360:rate=25', { seconds: 3 });
  // A white picture 2:1 (the watermark image), as the icons are stored: PNG.
  ffmpeg('-f', 'lavfi', '-i', 'color=c=white:size=200x100', '-frames:v', '1', file('icon.png'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('publish processing steps', () => {
  const step = { input: '', duration: 2, hasAudio: true };

  it('transcodes into WebM (VP9 + Opus) and MP4 at the bit rate asked', async () => {
    await transcodeFile({
      ...step,
      input: file('in.mp4'),
      output: file('out.webm'),
      format: 'webm',
      videoBitrateKbps: 300,
    });
    const webm = streams(file('out.webm'));
    expect(webm.format.format_name).toContain('webm');
    expect(webm.streams.map((s) => s.codec_name).sort()).toEqual(['opus', 'vp9']);

    await transcodeFile({
      ...step,
      input: file('busy.mp4'),
      output: file('low.mp4'),
      format: 'mp4',
      videoBitrateKbps: 200,
    });
    await transcodeFile({
      ...step,
      input: file('busy.mp4'),
      output: file('high.mp4'),
      format: 'mp4',
      videoBitrateKbps: 4000,
    });
    expect(
      streams(file('low.mp4'))
        .streams.map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
    expect(fs.statSync(file('high.mp4')).size).toBeGreaterThan(fs.statSync(file('low.mp4')).size * 2);
  });

  it('gives the very ffmpeg arguments the transcode runs (for a baseline)', () => {
    const args = transcodeArguments(
      { input: '/in.mp4', hasAudio: true, format: 'mp4', videoBitrateKbps: 700 },
      '/out.mp4',
    );
    expect(args.slice(0, 3)).toEqual(['-hide_banner', '-nostdin', '-y']);
    expect(args.join(' ')).toContain('-i /in.mp4 -map 0:v:0? -c:v libx264 -preset veryfast');
    expect(args.join(' ')).toContain('-b:v 700k -map 0:a:0 -c:a aac');
    expect(args.at(-1)).toBe('/out.mp4');
  });

  it('burns a text into the corner asked, and only there', async () => {
    await watermarkFile({
      ...step,
      input: file('in.mp4'),
      output: file('marked.mp4'),
      text: "News: it's 100% live, \\ really",
      position: 'bottom-right',
    });
    const before = frame(file('in.mp4'));
    const after = frame(file('marked.mp4'));
    // The bottom-right corner changed; the top-left did not (beyond compression).
    expect(difference(before, after, 40, 64, 28, 36)).toBeGreaterThan(10);
    expect(difference(before, after, 0, 20, 0, 10)).toBeLessThan(4);
    expect(
      streams(file('marked.mp4'))
        .streams.map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.part') || name.endsWith('.txt'))).toEqual([]);
  });
});

describe('watermark images', () => {
  const step = { input: '', duration: 3, hasAudio: true };
  // The image is 15% of the picture high (36 rows: 5.4) and twice as wide, a 1/30 margin (1.2) from the edges.
  const IMAGE_BOTTOM_RIGHT = [53, 62, 30, 34] as const;

  it('puts the image in the corner asked, partly transparent, and changes nothing elsewhere', async () => {
    await watermarkFile({
      ...step,
      input: file('grey.mp4'),
      output: file('imaged.mp4'),
      image: file('icon.png'),
      position: 'bottom-right',
    });
    const before = frame(file('grey.mp4'));
    const after = frame(file('imaged.mp4'));
    const [x0, x1, y0, y1] = IMAGE_BOTTOM_RIGHT;
    const grey = mean(before, x0, x1, y0, y1);
    const marked = mean(after, x0, x1, y0, y1);
    // White at 80%: much brighter than the grey, yet not quite white.
    expect(marked).toBeGreaterThan(grey + 60);
    expect(marked).toBeLessThan(235);
    expect(difference(before, after, 0, 48, 0, 36)).toBeLessThan(2);
    expect(difference(before, after, 0, 64, 0, 26)).toBeLessThan(2);
  });

  it('burns a text past the image (above it at the bottom) through the process step', async () => {
    const marked = await runProcessStep(
      { moduleId: 'watermark', options: { text: 'MEDIA CLOUD', position: 'bottom-right' } },
      { file: file('grey.mp4'), duration: 3, hasAudio: true },
      file('both'),
      {},
      { image: file('icon.png') },
    );
    expect(marked.file).toBe(file('both.mp4'));
    const before = frame(file('grey.mp4'));
    const after = frame(marked.file);
    // The image in the corner, the text just above it (rows 25-28), clear of it; the rest untouched.
    const [x0, x1, y0, y1] = IMAGE_BOTTOM_RIGHT;
    expect(mean(after, x0, x1, y0, y1) - mean(before, x0, x1, y0, y1)).toBeGreaterThan(60);
    expect(difference(before, after, 52, 62, 25, 27)).toBeGreaterThan(10);
    expect(difference(before, after, 0, 64, 0, 23)).toBeLessThan(2);
    expect(difference(before, after, 0, 40, 0, 36)).toBeLessThan(2);
  });

  it('refuses a watermark with neither a text nor an image, leaving nothing', async () => {
    await expect(
      watermarkFile({
        ...step,
        input: file('grey.mp4'),
        output: file('none.mp4'),
        text: ' ',
        position: 'top-left',
      }),
    ).rejects.toThrow('A watermark needs a text or an image');
    expect(fs.existsSync(file('none.mp4'))).toBe(false);
  });
});

describe('burnt-in subtitles', () => {
  const step = { input: '', duration: 3, hasAudio: true };
  /** A frame as 320x180 grey bytes: the letters of a cue are thin. */
  const fineFrame = (input: string, seconds: string) => greyFrame(input, seconds, 320, 180);
  /** How many pixels of rows y0..y1 differ clearly between two such frames. */
  const changed = (a: Buffer, b: Buffer, y0: number, y1: number) => {
    let count = 0;
    for (let at = y0 * 320; at < y1 * 320; at++) if (Math.abs((a[at] ?? 0) - (b[at] ?? 0)) > 40) count++;
    return count;
  };
  /** Changed pixels in the bottom half (where libass draws the cue), at a time of the source and output. */
  const changedBelow = (source: string, output: string, seconds: string) =>
    changed(fineFrame(source, seconds), fineFrame(output, seconds), 90, 180);

  it.each([
    ['srt', '1\n00:00:01,000 --> 00:00:02,000\nHELLO WORLD\n'],
    ['vtt', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHELLO WORLD\n'],
  ] as const)('draws a %s cue during its time and nowhere else', async (format, content) => {
    // A name full of filter syntax: the file is copied to a plain name before the filter reads it.
    const subtitles = file(`it's [a]; b=c, d:e.${format}`);
    fs.writeFileSync(subtitles, content);
    const output = file(`subtitled-${format}.mp4`);
    const temporary = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('media-filter-'));
    const before = temporary();
    await burnSubtitles({ ...step, input: file('grey.mp4'), output, subtitles, format });
    // The plain-named copy is gone with its folder.
    expect(temporary().filter((name) => !before.includes(name))).toEqual([]);
    const source = file('grey.mp4');
    expect(changedBelow(source, output, '1.5')).toBeGreaterThan(200);
    expect(changed(fineFrame(source, '1.5'), fineFrame(output, '1.5'), 0, 90)).toBe(0);
    expect(changedBelow(source, output, '0.5')).toBe(0);
    expect(changedBelow(source, output, '2.5')).toBe(0);
    expect(Number(streams(output).format.duration)).toBeCloseTo(3, 0);
  });

  it('runs as the burn-subtitles process step, which needs the subtitles given', async () => {
    const node = { moduleId: 'burn-subtitles', options: { language: 'en' } };
    const input = { file: file('grey.mp4'), duration: 3, hasAudio: true };
    await expect(runProcessStep(node, input, file('no-subtitles'), {})).rejects.toThrow(
      'No subtitles were given',
    );
    fs.writeFileSync(file('cue.srt'), '1\n00:00:01,000 --> 00:00:02,000\nHELLO\n');
    const out = await runProcessStep(
      node,
      input,
      file('step'),
      {},
      {
        subtitles: { file: file('cue.srt'), format: 'srt' },
      },
    );
    expect(out).toEqual({ ...input, file: file('step.mp4') });
    expect(changedBelow(input.file, out.file, '1.5')).toBeGreaterThan(50);
  });
});
