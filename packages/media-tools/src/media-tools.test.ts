import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { proxyPlan } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentHash,
  endLeftoverTools,
  makeFilmstrip,
  makePoster,
  makeProxy,
  probe,
  TOOL_MARK_VARIABLE,
  toolMark,
} from './index.ts';
import { ffmpeg, ffprobe } from './test-media.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);
const leftovers = () => fs.readdirSync(dir).filter((name) => name.includes('.part'));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-tools-'));
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file('source.mp4')],
  );
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25',
    '-t',
    '2',
    '-c:v',
    'mpeg4',
    file('silent.avi'),
  );
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=220', '-t', '2', file('sound.wav'));
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '30'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', file('long.mp4')],
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('probe', () => {
  it('reads size, frame rate, codecs and duration', async () => {
    const info = await probe(file('source.mp4'));
    expect(info).toMatchObject({ width: 320, height: 240, fps: 30, videoCodec: 'h264', audioCodec: 'aac' });
    expect(info?.duration).toBeCloseTo(2, 0);
  });

  it('answers null for a file that holds no media', async () => {
    fs.writeFileSync(file('notes.txt'), 'hello');
    expect(await probe(file('notes.txt'))).toBeNull();
  });
});

describe('makeProxy', () => {
  it('makes an H.264 + AAC MP4 at the plan size and frame rate, index first, with progress', async () => {
    const plan = proxyPlan({ width: 320, height: 240 }, 'NTSC_wide', 640);
    const seen: number[] = [];
    await makeProxy({
      input: file('source.mp4'),
      output: file('proxy.mp4'),
      plan,
      duration: 2,
      onProgress: (p) => seen.push(p),
    });
    const out = ffprobe(file('proxy.mp4'));
    const video = out.streams.find((s) => s.codec_type === 'video');
    expect(video).toMatchObject({
      codec_name: 'h264',
      width: plan.width,
      height: plan.height,
      r_frame_rate: '30/1',
    });
    expect(out.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(out.format.duration) - 2)).toBeLessThan(0.2);
    expect((await probe(file('proxy.mp4')))?.moovFirst).toBe(true);
    expect(seen.at(-1)).toBe(100);
    expect(leftovers()).toEqual([]);
  });

  it('makes a proxy of a file without sound, and an audio-only one of a file without picture', async () => {
    const plan = proxyPlan({ width: 640, height: 360 }, 'PAL_wide', 640);
    await makeProxy({
      input: file('silent.avi'),
      output: file('silent.mp4'),
      plan,
      duration: 2,
      hasAudio: false,
    });
    expect(ffprobe(file('silent.mp4')).streams.map((s) => s.codec_type)).toEqual(['video']);
    await makeProxy({
      input: file('sound.wav'),
      output: file('sound.mp4'),
      plan,
      duration: 2,
      hasVideo: false,
    });
    expect(ffprobe(file('sound.mp4')).streams.map((s) => s.codec_name)).toEqual(['aac']);
  });

  it('stops ffmpeg on abort and leaves no file', async () => {
    const controller = new AbortController();
    const plan = proxyPlan({ width: 1280, height: 720 }, 'PAL_wide_720', 1280);
    const started = makeProxy({
      input: file('long.mp4'),
      output: file('aborted.mp4'),
      plan,
      duration: 30,
      hasAudio: false,
      signal: controller.signal,
      threads: 1,
    });
    setTimeout(() => controller.abort(new Error('aborted by a person')), 300);
    const at = Date.now();
    await expect(started).rejects.toThrow('aborted by a person');
    expect(Date.now() - at).toBeLessThan(3000);
    expect(fs.existsSync(file('aborted.mp4'))).toBe(false);
    expect(leftovers()).toEqual([]);
    const running = execFileSync('ps', ['-eo', 'args']).toString();
    expect(running).not.toContain(file('long.mp4'));
  });

  it('makes the poster and filmstrip of the proxy picture in the same pass, reporting progress as it goes', async () => {
    const plan = proxyPlan({ width: 1280, height: 720 }, 'NTSC_wide', 640);
    const seen: number[] = [];
    await makeProxy({
      input: file('long.mp4'),
      output: file('with-thumbs.mp4'),
      plan,
      duration: 30,
      hasAudio: false,
      thumbnails: { poster: file('with-thumbs-poster.jpg'), filmstrip: file('with-thumbs-strip.jpg') },
      onProgress: (p) => seen.push(p),
    });
    const proxy = ffprobe(file('with-thumbs.mp4'));
    expect(proxy.streams.map((s) => s.codec_name)).toEqual(['h264']);
    expect(Math.abs(Number(proxy.format.duration) - 30)).toBeLessThan(0.2);
    // Progress comes while the proxy is made, not only at the end (each output must have begun for it).
    expect(seen.some((p) => p > 0 && p < 99)).toBe(true);
    // The poster and strip are of the padded proxy picture, as makePoster/makeFilmstrip make them from it.
    const posterHeight = Math.round((320 * plan.height) / plan.width / 2) * 2;
    expect(ffprobe(file('with-thumbs-poster.jpg')).streams[0]).toMatchObject({
      codec_name: 'mjpeg',
      width: 320,
    });
    expect(
      Math.abs((ffprobe(file('with-thumbs-poster.jpg')).streams[0]?.height ?? 0) - posterHeight),
    ).toBeLessThanOrEqual(2);
    expect(ffprobe(file('with-thumbs-strip.jpg')).streams[0]).toMatchObject({
      codec_name: 'mjpeg',
      width: 1600,
    });
    expect(leftovers()).toEqual([]);
  });

  it('leaves neither proxy nor thumbnails when it fails', async () => {
    fs.writeFileSync(file('broken-thumbs.mp4'), Buffer.alloc(4096, 7));
    const plan = proxyPlan(null, 'PAL_wide', 640);
    await expect(
      makeProxy({
        input: file('broken-thumbs.mp4'),
        output: file('never-thumbs.mp4'),
        plan,
        duration: 1,
        thumbnails: { poster: file('never-poster.jpg'), filmstrip: file('never-strip.jpg') },
      }),
    ).rejects.toThrow(/ffmpeg failed/);
    for (const name of ['never-thumbs.mp4', 'never-poster.jpg', 'never-strip.jpg']) {
      expect(fs.existsSync(file(name))).toBe(false);
    }
    expect(leftovers()).toEqual([]);
  });

  it("rejects with ffmpeg's own words when the input cannot be read", async () => {
    fs.writeFileSync(file('broken.mp4'), Buffer.alloc(4096, 7));
    const plan = proxyPlan(null, 'PAL_wide', 640);
    await expect(
      makeProxy({ input: file('broken.mp4'), output: file('never.mp4'), plan, duration: 1 }),
    ).rejects.toThrow(/ffmpeg failed.*Invalid data|ffmpeg failed/s);
    expect(fs.existsSync(file('never.mp4'))).toBe(false);
  });
});

describe('thumbnails', () => {
  it('makes a poster and a filmstrip of the requested sizes', async () => {
    await makePoster({ input: file('source.mp4'), output: file('poster.jpg'), duration: 2, width: 160 });
    await makeFilmstrip({
      input: file('source.mp4'),
      output: file('strip.jpg'),
      duration: 2,
      frames: 8,
      width: 80,
    });
    expect(ffprobe(file('poster.jpg')).streams[0]).toMatchObject({
      codec_name: 'mjpeg',
      width: 160,
      height: 120,
    });
    expect(ffprobe(file('strip.jpg')).streams[0]).toMatchObject({
      codec_name: 'mjpeg',
      width: 640,
      height: 60,
    });
  });
});

describe('contentHash', () => {
  it('is the SHA-256 of the content', async () => {
    const expected = createHash('sha256')
      .update(fs.readFileSync(file('source.mp4')))
      .digest('hex');
    expect(await contentHash(file('source.mp4'))).toBe(expected);
  });
});

/** Whether a process is gone: no longer in /proc, or dead and not yet reaped by whoever inherited it. */
const gone = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
};
const until = async (condition: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !condition(); ) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
};
/** An ffmpeg that runs for a minute unless stopped, at the pace of its input (-re). */
const SLOW_FFMPEG = [
  '-v',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=160x90:rate=5',
  '-t',
  '60',
  '-f',
  'null',
  '-',
];

describe.skipIf(process.platform !== 'linux')('the tools a process starts (Linux)', () => {
  it('die with the process that started them, at once, when it is killed with kill -9', async () => {
    const children = path.join(import.meta.dirname, 'children.ts');
    const parent = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', '--input-type=module', '-e'],
        `import { spawnTool } from ${JSON.stringify(children)};
         const tool = spawnTool('ffmpeg', ${JSON.stringify(SLOW_FFMPEG)}, { stdio: 'ignore' });
         tool.once('spawn', () => console.log(tool.pid));
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const toolPid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
    );
    try {
      expect(
        await until(() => fs.readFileSync(`/proc/${toolPid}/comm`, 'utf8').trim() === 'ffmpeg', 5000),
      ).toBe(true);
      parent.kill('SIGKILL');
      expect(await until(() => gone(toolPid), 2000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
      if (!gone(toolPid)) process.kill(toolPid, 'SIGKILL');
    }
  });

  it("ends at start the marked tools of the same data directory whose server is gone, and no running server's", async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'media-tools-other-'));
    // A server that died: its tools now have another parent (this test, standing in for init).
    const start = (mark: string) =>
      spawn('ffmpeg', SLOW_FFMPEG, { stdio: 'ignore', env: { ...process.env, [TOOL_MARK_VARIABLE]: mark } });
    const left = start(toolMark(999_999_999, dir));
    const running = start(toolMark(process.pid, dir));
    const elsewhere = start(toolMark(999_999_999, other));
    const unmarked = spawn('ffmpeg', SLOW_FFMPEG, { stdio: 'ignore' });
    const all = [left, running, elsewhere, unmarked];
    try {
      await Promise.all(all.map((child) => new Promise((resolve) => child.once('spawn', resolve))));
      expect(endLeftoverTools(dir)).toBe(1);
      expect(await until(() => gone(left.pid as number), 2000)).toBe(true);
      for (const child of [running, elsewhere, unmarked]) expect(gone(child.pid as number)).toBe(false);
    } finally {
      for (const child of all) child.kill('SIGKILL');
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
