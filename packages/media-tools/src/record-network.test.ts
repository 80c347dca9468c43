import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RTMP_APP } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joinSegments,
  type Recording,
  recordedSegments,
  recordStream,
  StreamRefused,
  sendTestStream,
  streamInputAddress,
} from './index.ts';
import { ffprobe, streamOf } from './test-media.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-record-net-'));
});
// Kills any recording a failed test left listening (a listener waits for its push forever).
const leftovers = new AbortController();
afterAll(() => {
  leftovers.abort(new Error('the tests are over'));
  fs.rmSync(dir, { recursive: true, force: true });
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const until = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await wait(100);
  }
};

/**
 * Records for about `seconds` once the signal is there, stops, joins, and answers ffprobe's reading with the
 * seconds the recording counted.
 */
const recordFor = async (recording: Recording, folder: string, seconds: number) => {
  await until(() => recording.receiving(), 15_000);
  await until(() => recording.elapsed() >= seconds, 20_000);
  await recording.stop();
  const output = path.join(folder, 'recording.mp4');
  await joinSegments({ dir: folder, output, recordedAt: new Date() });
  return { ...ffprobe(output), counted: recording.elapsed() };
};

describe('recording pushed and pulled streams', () => {
  it('records an RTMP push with its stream key as it arrives (copied, not encoded again)', async () => {
    const folder = path.join(dir, 'rtmp');
    const input = { kind: 'rtmp', port: await freePort(), app: RTMP_APP, streamKey: 'studio-7' } as const;
    const recording = await recordStream({ dir: folder, segmentSeconds: 1, input }, leftovers.signal);
    // Nothing arrives before the push: the recording waits for its signal.
    await wait(500);
    expect(recording.receiving()).toBe(false);
    const sender = sendTestStream({ kind: 'rtmp', url: streamInputAddress(input) }, { reconnect: true });
    const info = await recordFor(recording, folder, 3);
    await sender.stop();
    expect(streamOf(info, 'video')?.codec_name).toBe('h264');
    expect(streamOf(info, 'video')?.width).toBe(320);
    expect(streamOf(info, 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(info.format.duration) - info.counted)).toBeLessThanOrEqual(0.5);
    expect(info.counted).toBeLessThan(4.5);
  }, 60_000);

  it('cuts off a push with a wrong stream key, leaving no segment of it', async () => {
    const folder = path.join(dir, 'rtmp-refused');
    const input = { kind: 'rtmp', port: await freePort(), app: RTMP_APP, streamKey: 'right-key' } as const;
    const recording = await recordStream({ dir: folder, segmentSeconds: 1, input }, leftovers.signal);
    const sender = sendTestStream(
      {
        kind: 'rtmp',
        url: streamInputAddress({ ...input, streamKey: 'wrong-key' }),
      },
      { reconnect: true },
    );
    const refusal = await recording.ended.then(
      () => undefined,
      (error: unknown) => error,
    );
    await sender.stop();
    expect(refusal).toBeInstanceOf(StreamRefused);
    expect((refusal as StreamRefused).reason).toBe('wrongKey');
    expect((refusal as Error).message).toBe('Refused a push with a wrong stream key');
    expect(await recordedSegments(folder)).toEqual([]);
  }, 30_000);

  it('says which port is taken when another program listens on it', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const recording = await recordStream(
        {
          dir: path.join(dir, 'taken'),
          segmentSeconds: 1,
          input: { kind: 'rtmp', port, app: RTMP_APP, streamKey: 'k' },
        },
        leftovers.signal,
      );
      await expect(recording.ended).rejects.toThrow(`Port ${port} is already in use on the edge server`);
    } finally {
      taken.close();
    }
  }, 30_000);

  it('records an SRT stream it listens for, encrypted with the passphrase', async () => {
    const folder = path.join(dir, 'srt');
    const port = await freePort();
    const passphrase = 'correct horse battery';
    const input = { kind: 'srt', mode: 'listener', host: '', port, latencyMs: 120, passphrase } as const;
    const recording = await recordStream({ dir: folder, segmentSeconds: 1, input }, leftovers.signal);
    const sender = sendTestStream(
      { kind: 'srt', mode: 'caller', host: '127.0.0.1', port, passphrase },
      { reconnect: true },
    );
    const info = await recordFor(recording, folder, 3);
    await sender.stop();
    expect(streamOf(info, 'video')?.codec_name).toBe('h264');
    expect(Math.abs(Number(info.format.duration) - info.counted)).toBeLessThanOrEqual(0.5);
    expect(info.counted).toBeLessThan(4.5);
  }, 60_000);

  it('pulls a live HLS playlist from its live edge', async () => {
    const origin = path.join(dir, 'origin');
    fs.mkdirSync(origin);
    const sender = sendTestStream({ kind: 'hls', playlist: path.join(origin, 'live.m3u8') });
    const server = http.createServer((request, response) => {
      const file = path.join(origin, path.basename(request.url ?? ''));
      if (!fs.existsSync(file)) return void response.writeHead(404).end();
      response.writeHead(200).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await until(() => fs.existsSync(path.join(origin, 'live.m3u8')), 15_000);
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/live.m3u8`;
      const folder = path.join(dir, 'hls');
      const recording = await recordStream(
        { dir: folder, segmentSeconds: 1, input: { kind: 'hls', url } },
        leftovers.signal,
      );
      const info = await recordFor(recording, folder, 4);
      expect(streamOf(info, 'video')?.codec_name).toBe('h264');
      expect(streamOf(info, 'audio')?.codec_name).toBe('aac');
      expect(Number(info.format.duration)).toBeGreaterThan(3);
    } finally {
      await sender.stop();
      server.close();
    }
  }, 60_000);
});
