import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinSegments, recordedBytes, recordedSegments, recordingArguments, recordStream } from './index.ts';
import { ffprobe, streamOf } from './test-media.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-record-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('recording a test stream', () => {
  it('generates the pattern asked for, bars when it knows none, numbering segments on', () => {
    const test = { kind: 'test', frameRate: 25, pattern: 'smpte' } as const;
    expect(recordingArguments({ dir, segmentSeconds: 2, input: test }, 0)).toContain(
      'smptehdbars=size=320x180:rate=25',
    );
    const other = recordingArguments(
      { dir, segmentSeconds: 2, input: { ...test, pattern: 'plaid', frameRate: 0 } },
      3,
    );
    expect(other).toContain('testsrc2=size=320x180:rate=25');
    expect(other[other.indexOf('-segment_start_number') + 1]).toBe('3');
  });

  it('records in real time until stopped, goes on after a break, and joins into one MP4 with picture and sound', async () => {
    const folder = path.join(dir, 'take');
    const first = await recordStream(
      { dir: folder, segmentSeconds: 1, input: { kind: 'test', frameRate: 25, pattern: 'bars' } },
      new AbortController().signal,
    );
    await wait(2500);
    // Real time: about as many seconds recorded as have passed, not more.
    expect(first.elapsed()).toBeGreaterThan(1.5);
    expect(first.elapsed()).toBeLessThan(3);
    await first.stop();
    const before = (await recordedSegments(folder)).length;
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await recordedBytes(folder)).toBeGreaterThan(0);
    // A killed recording (the agent stopping) keeps its segments; the next one numbers on after them.
    const killer = new AbortController();
    const second = await recordStream(
      { dir: folder, segmentSeconds: 1, input: { kind: 'test', frameRate: 25, pattern: 'bars' } },
      killer.signal,
    );
    await wait(1500);
    killer.abort(new Error('stopping'));
    await expect(second.ended).rejects.toThrow('stopping');
    const segments = await recordedSegments(folder);
    expect(segments.length).toBeGreaterThan(before);
    expect(path.basename(segments[before] as string)).toBe(`part-${String(before).padStart(5, '0')}.ts`);
    const output = path.join(folder, 'recording.mp4');
    const written = segments.filter((file) => fs.statSync(file).size > 0);
    expect(await joinSegments({ dir: folder, output, recordedAt: new Date() })).toBe(written.length);
    const info = ffprobe(output);
    expect(streamOf(info, 'video')?.codec_name).toBe('h264');
    expect(streamOf(info, 'audio')?.codec_name).toBe('aac');
    expect(Number(info.format.duration)).toBeGreaterThan(3);
    expect(Number(info.format.duration)).toBeLessThan(5.5);
    // The other recording formats: MPEG-TS as recorded, MXF with its sound as 48 kHz PCM.
    for (const format of ['ts', 'mxf'] as const) {
      const joined = path.join(folder, `recording.${format}`);
      await joinSegments({ dir: folder, output: joined, recordedAt: new Date(), format });
      const probed = ffprobe(joined);
      expect(probed.format.format_name).toBe(format === 'ts' ? 'mpegts' : 'mxf');
      expect(streamOf(probed, 'video')?.codec_name).toBe('h264');
      expect(streamOf(probed, 'audio')?.codec_name).toBe(format === 'ts' ? 'aac' : 'pcm_s16le');
      expect(Math.abs(Number(probed.format.duration) - Number(info.format.duration))).toBeLessThan(0.5);
    }
  });

  it('records no more than maxSeconds, then ends by itself with the recording whole (a schedule)', async () => {
    const folder = path.join(dir, 'limited');
    const recording = await recordStream(
      {
        dir: folder,
        segmentSeconds: 1,
        input: { kind: 'test', frameRate: 25, pattern: 'bars' },
        maxSeconds: 2,
      },
      new AbortController().signal,
    );
    await recording.ended;
    expect(recording.reachedLimit()).toBe(true);
    const output = path.join(folder, 'recording.mp4');
    await joinSegments({ dir: folder, output, recordedAt: new Date() });
    expect(Math.abs(Number(ffprobe(output).format.duration) - 2)).toBeLessThan(0.3);
  });

  it('keeps what a killed recording recorded of its unfinished segment', async () => {
    const folder = path.join(dir, 'killed');
    const killer = new AbortController();
    const recording = await recordStream(
      { dir: folder, segmentSeconds: 6, input: { kind: 'test', frameRate: 25, pattern: 'bars' } },
      killer.signal,
    );
    await wait(2500);
    const elapsed = recording.elapsed();
    killer.abort(new Error('stopping'));
    await expect(recording.ended).rejects.toThrow('stopping');
    const [segment] = await recordedSegments(folder);
    expect(elapsed).toBeGreaterThan(1);
    // The agent counts what it recorded before a restart: that much must be in the file.
    expect(Number(ffprobe(segment as string).format.duration)).toBeGreaterThan(elapsed - 0.5);
  });

  it('refuses to join a recording that has no segment', async () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    await expect(
      joinSegments({ dir: empty, output: path.join(empty, 'out.mp4'), recordedAt: new Date() }),
    ).rejects.toThrow('Nothing was recorded');
    expect(fs.existsSync(path.join(empty, 'out.mp4'))).toBe(false);
  });
});
