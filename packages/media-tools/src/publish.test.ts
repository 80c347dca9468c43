import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcodeFile, watermarkFile } from './index.ts';
import { ffprobe, greyFrame, testVideo } from './test-media.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);
const streams = (target: string) => ffprobe(target);
/** The picture of a frame as 64x36 grey bytes. */
const frame = (input: string) => greyFrame(input, '1', 64, 36);
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
