import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEdl, renderedDuration } from './index.ts';
import { greyFrame, ffprobe as probeFile, streamOf, testVideo } from './test-media.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);
const ffprobe = (target: string) => probeFile(target, { countFrames: true });
const stream = streamOf;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-render-'));
  // A: 3 s at 25 fps, 320x240, with sound. B: 2 s at 25 fps, 160x90 (another shape), silent.
  testVideo(file('a.mp4'), 'testsrc2=size=320x240:rate=25', { seconds: 3 });
  testVideo(file('b.mp4'), 'testsrc=size=160x90:rate=25', { seconds: 2, sound: false });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('rendering an edl', () => {
  const a = { hasVideo: true, hasAudio: true };
  const b = { hasVideo: true, hasAudio: false };

  it('cuts its pieces frame-accurately and joins them in order, at one size, with sound throughout', async () => {
    const pieces = [
      { input: file('a.mp4'), inFrame: 10, outFrame: 35, ...a },
      { input: file('b.mp4'), inFrame: 5, outFrame: 30, ...b },
      { input: file('a.mp4'), inFrame: 50, outFrame: 60, ...a },
    ];
    const reports: number[] = [];
    await renderEdl({
      pieces,
      fps: 25,
      width: 320,
      height: 240,
      output: file('clip.mp4'),
      onProgress: (percent) => reports.push(percent),
    });
    const info = ffprobe(file('clip.mp4'));
    const video = stream(info, 'video');
    const audio = stream(info, 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 320, height: 240, r_frame_rate: '25/1' });
    // (35 − 10) + (30 − 5) + (60 − 50) = 60 frames: 2.4 s.
    expect(Number(video?.nb_read_frames)).toBe(60);
    expect(renderedDuration(pieces, 25)).toBeCloseTo(2.4, 6);
    expect(Number(info.format.duration)).toBeCloseTo(2.4, 1);
    expect(audio?.codec_name).toBe('aac');
    expect(Number(audio?.duration)).toBeCloseTo(2.4, 1);
    expect(reports.at(-1)).toBe(100);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.part'))).toEqual([]);
  });

  it('starts a piece at its in frame: not the frame before or after', async () => {
    // testsrc2 draws a moving picture: the clip's first frame equals the source's frame 40.
    await renderEdl({
      pieces: [{ input: file('a.mp4'), inFrame: 40, outFrame: 45, ...a }],
      fps: 25,
      width: 320,
      height: 240,
      output: file('one.mp4'),
    });
    const frame = (input: string, at: string) => greyFrame(input, at, 32, 24);
    const rendered = frame(file('one.mp4'), '0');
    const distance = (other: Buffer) =>
      rendered.reduce((sum, value, index) => sum + Math.abs(value - (other[index] ?? 0)), 0);
    // Not the frame before or after: a cut is exact to the frame.
    const at = (frameNumber: number) => distance(frame(file('a.mp4'), (frameNumber / 25).toFixed(3)));
    expect(at(40)).toBeLessThan(at(39));
    expect(at(40)).toBeLessThan(at(41));
    expect(Number(stream(ffprobe(file('one.mp4')), 'video')?.nb_read_frames)).toBe(5);
  });

  it('fails on an unreadable piece and leaves no file', async () => {
    fs.writeFileSync(file('broken.mp4'), 'not a video');
    await expect(
      renderEdl({
        pieces: [{ input: file('broken.mp4'), inFrame: 0, outFrame: 10, ...a }],
        fps: 25,
        width: 320,
        height: 240,
        output: file('broken-clip.mp4'),
      }),
    ).rejects.toThrow(/ffmpeg failed/);
    expect(fs.existsSync(file('broken-clip.mp4'))).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.part'))).toEqual([]);
  });
});
