import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeAtomically } from './files.ts';
import { runTool } from './run.ts';

/** The picture of a test stream (the TeststreamEndpoint's `pattern` option) as an ffmpeg lavfi source. */
const PATTERNS: Readonly<Record<string, string>> = {
  bars: 'testsrc2',
  smpte: 'smptehdbars',
  countdown: 'testsrc',
};

/** Segments of a recording are named in order: `part-00000.ts`, `part-00001.ts`... */
const SEGMENT_PATTERN = /^part-(\d{5})\.ts$/;

export type TestStreamSettings = {
  /** The folder the segments are written into; segments already there are kept and followed. */
  dir: string;
  /** Seconds per segment (the StreamIngestService's `segmentSeconds`). */
  segmentSeconds: number;
  frameRate: number;
  /** bars, smpte or countdown; anything else is bars. */
  pattern: string;
  /** Picture size; small by default (the test stream is for trying the product). */
  size?: string;
};

/** The segments of a recording folder, in order. */
export const recordedSegments = async (dir: string) =>
  (await fs.promises.readdir(dir).catch(() => [] as string[]))
    .filter((name) => SEGMENT_PATTERN.test(name))
    .sort()
    .map((name) => path.join(dir, name));

/** The bytes written into a recording folder so far. */
export const recordedBytes = async (dir: string) => {
  let total = 0;
  for (const file of await recordedSegments(dir))
    total += (await fs.promises.stat(file).catch(() => ({ size: 0 }))).size;
  return total;
};

/**
 * The ffmpeg arguments of a test stream recording: a generated picture and a 1 kHz tone, read in real time,
 * as H.264 and AAC in MPEG-TS segments (each readable on its own, so a recording cut short keeps what it has),
 * numbered on from `startNumber`, with a key frame at the start of each segment.
 */
export const testStreamArguments = (settings: TestStreamSettings, startNumber: number) => {
  const fps = settings.frameRate > 0 && settings.frameRate <= 60 ? settings.frameRate : 25;
  const source = PATTERNS[settings.pattern] ?? 'testsrc2';
  return [
    ...['-hide_banner', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1'],
    ...['-re', '-f', 'lavfi', '-i', `${source}=size=${settings.size ?? '320x180'}:rate=${fps}`],
    ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000'],
    ...['-map', '0:v', '-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ...['-force_key_frames', `expr:gte(t,n_forced*${settings.segmentSeconds})`],
    ...['-c:a', 'aac', '-b:a', '96k'],
    ...['-f', 'segment', '-segment_time', String(settings.segmentSeconds), '-segment_format', 'mpegts'],
    ...['-segment_start_number', String(startNumber)],
    path.join(settings.dir, 'part-%05d.ts'),
  ];
};

export type Recording = {
  /** Seconds recorded by this ffmpeg so far (its own clock of the output). */
  elapsed(): number;
  /** Ends the recording cleanly (ffmpeg closes its last segment); resolves when ffmpeg has exited. */
  stop(): Promise<void>;
  /** Settles when ffmpeg exits: resolves after `stop`, rejects when it ended by itself or was killed. */
  ended: Promise<void>;
};

/**
 * Starts recording a test stream into segments (DESIGN "Media", Streams). `signal` kills ffmpeg at once (the
 * agent stopping): the segments stay, and a later recording into the same folder numbers on after them.
 */
export const recordTestStream = async (settings: TestStreamSettings, signal: AbortSignal) => {
  await fs.promises.mkdir(settings.dir, { recursive: true });
  const startNumber = (await recordedSegments(settings.dir)).length;
  const child = spawn('ffmpeg', testStreamArguments(settings, startNumber), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let progressText = '';
  let elapsedUs = 0;
  let errors = '';
  let stopping = false;
  child.stdout.on('data', (chunk: Buffer) => {
    progressText = (progressText + chunk.toString()).slice(-4000);
    const last = [...progressText.matchAll(/out_time_us=(\d+)/g)].at(-1)?.[1];
    if (last) elapsedUs = Math.max(elapsedUs, Number(last));
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const onAbort = () => child.kill('SIGKILL');
  signal.addEventListener('abort', onAbort, { once: true });
  const ended = new Promise<void>((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`ffmpeg could not start: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      // ffmpeg answers an interrupt by closing its files and exiting 255.
      else if (stopping) resolve();
      else
        reject(
          new Error(
            `ffmpeg ended the recording by itself (${killedBy ?? `exit ${code}`}): ${errors.trim() || 'no output'}`,
          ),
        );
    });
  });
  // Seen by whoever awaits it; until then an end must not count as unhandled.
  ended.catch(() => undefined);
  const recording: Recording = {
    elapsed: () => elapsedUs / 1e6,
    stop: async () => {
      stopping = true;
      child.kill('SIGINT');
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended.finally(() => clearTimeout(kill));
    },
    ended,
  };
  return recording;
};

/**
 * Joins the segments of a recording into one MP4 (index first) without encoding again; `output` appears only
 * when complete. The recording time goes into its metadata, so two recordings of the same picture are two
 * files. Answers the number of segments joined; none is an error.
 */
export const joinSegments = async (options: {
  dir: string;
  output: string;
  recordedAt: Date;
  signal?: AbortSignal;
}) => {
  // A segment ffmpeg was killed before writing into is empty: there is nothing of it to join.
  const segments: string[] = [];
  for (const file of await recordedSegments(options.dir))
    if ((await fs.promises.stat(file)).size > 0) segments.push(file);
  if (!segments.length) throw new Error('Nothing was recorded');
  const list = path.join(options.dir, 'segments.txt');
  await fs.promises.writeFile(
    list,
    segments.map((file) => `file '${file.replace(/'/g, "'\\''")}'\n`).join(''),
  );
  await writeAtomically(options.output, '.mp4', (temp) =>
    runTool(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list],
        ...['-map', '0', '-c', 'copy', '-bsf:a', 'aac_adtstoasc'],
        ...['-metadata', `creation_time=${options.recordedAt.toISOString()}`, '-movflags', '+faststart'],
        ...['-f', 'mp4', temp],
      ],
      { signal: options.signal },
    ).then(() => undefined),
  );
  return segments.length;
};
