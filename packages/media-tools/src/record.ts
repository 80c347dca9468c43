import fs from 'node:fs';
import path from 'node:path';
import { spawnTool } from './children.ts';
import { writeAtomically } from './files.ts';
import { runTool } from './run.ts';
import { refusalIn, type StreamInput, type StreamRefused, streamInputArguments } from './stream-input.ts';

/** Segments of a recording are named in order: `part-00000.ts`, `part-00001.ts`... */
const SEGMENT_PATTERN = /^part-(\d{5})\.ts$/;

export type StreamRecordingSettings = {
  /** The folder the segments are written into; segments already there are kept and followed. */
  dir: string;
  /** Seconds per segment (the StreamIngestService's `segmentSeconds`). */
  segmentSeconds: number;
  input: StreamInput;
  /**
   * The most seconds of media to record (a schedule's remaining time): ffmpeg ends by itself after them, so a
   * schedule's recording is as long as asked however late a busy machine gets round to stopping it.
   */
  maxSeconds?: number;
};

/** ffmpeg's last progress line may come a little before the limit it stopped at. */
const LIMIT_TOLERANCE_SECONDS = 1;

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
 * The ffmpeg arguments of a recording: the input (generated, pushed or pulled) into MPEG-TS segments (each
 * readable on its own, so a recording cut short keeps what it has), numbered on from `startNumber`.
 */
export const recordingArguments = (settings: StreamRecordingSettings, startNumber: number) => [
  ...['-hide_banner', '-nostats', '-loglevel', 'warning', '-progress', 'pipe:1'],
  ...streamInputArguments(settings.input, settings.segmentSeconds),
  ...(settings.maxSeconds === undefined ? [] : ['-t', settings.maxSeconds.toFixed(3)]),
  ...['-f', 'segment', '-segment_time', String(settings.segmentSeconds), '-segment_format', 'mpegts'],
  // Every packet reaches the segment file as it is muxed: an agent killed mid-segment keeps what it recorded
  // (with ffmpeg's buffer the unfinished segment was empty after a kill, up to a whole segment lost).
  ...['-segment_format_options', 'flush_packets=1'],
  ...['-segment_start_number', String(startNumber)],
  // Each finished segment is listed as it closes: the live rendition uploads those.
  ...['-segment_list', path.join(settings.dir, `list-${startNumber}.csv`), '-segment_list_type', 'csv'],
  path.join(settings.dir, 'part-%05d.ts'),
];

/** A segment ffmpeg has finished: its number, file and seconds; `discontinuity` when a new run began with it. */
export type FinishedSegment = { sequence: number; file: string; duration: number; discontinuity: boolean };

/** The finished segments of a recording folder, in order, from the lists each ffmpeg run writes. */
export const finishedSegments = async (dir: string): Promise<FinishedSegment[]> => {
  const lists = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((name) =>
    /^list-\d+\.csv$/.test(name),
  );
  const segments: FinishedSegment[] = [];
  for (const list of lists) {
    const runStart = Number(/\d+/.exec(list)?.[0]);
    const text = await fs.promises.readFile(path.join(dir, list), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const [name, start, end] = line.trim().split(',');
      const sequence = Number(SEGMENT_PATTERN.exec(name ?? '')?.[1]);
      const duration = Number(end) - Number(start);
      if (!Number.isInteger(sequence) || !(duration > 0)) continue;
      segments.push({
        sequence,
        file: path.join(dir, name as string),
        duration,
        discontinuity: sequence === runStart && runStart > 0,
      });
    }
  }
  return segments.sort((a, b) => a.sequence - b.sequence);
};

export type Recording = {
  /** Seconds recorded by this ffmpeg so far (its own clock of the output). */
  elapsed(): number;
  /** Whether anything has arrived yet (a pushed or pulled stream waits for its signal). */
  receiving(): boolean;
  /** Whether it recorded its `maxSeconds` (and so ended, or is about to, by itself). */
  reachedLimit(): boolean;
  /** Ends the recording cleanly (ffmpeg closes its last segment); resolves when ffmpeg has exited. */
  stop(): Promise<void>;
  /**
   * Settles when ffmpeg exits: resolves after `stop` or when the stream ended (a pushed or pulled stream's
   * signal went away); rejects when it failed, was refused (`StreamRefused`) or was killed.
   */
  ended: Promise<void>;
};

/** Removes the segments numbered from `first` on (what a refused push may have begun). */
const removeSegmentsFrom = async (dir: string, first: number) => {
  for (const file of await recordedSegments(dir)) {
    const number = Number(SEGMENT_PATTERN.exec(path.basename(file))?.[1]);
    if (number >= first) await fs.promises.rm(file, { force: true });
  }
};

/**
 * Starts recording a stream into segments (DESIGN "Media", Streams). `signal` kills ffmpeg at once (the agent
 * stopping): the segments stay, and a later recording into the same folder numbers on after them. A push with
 * a wrong stream key is cut off at once and leaves nothing.
 */
export const recordStream = async (settings: StreamRecordingSettings, signal: AbortSignal) => {
  await fs.promises.mkdir(settings.dir, { recursive: true });
  const startNumber = (await recordedSegments(settings.dir)).length;
  const child = spawnTool('ffmpeg', recordingArguments(settings, startNumber), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let progressText = '';
  let elapsedUs = 0;
  let received = false;
  let errors = '';
  let stopping = false;
  let refused: StreamRefused | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    progressText = (progressText + chunk.toString()).slice(-4000);
    const last = [...progressText.matchAll(/out_time_us=(\d+)/g)].at(-1)?.[1];
    if (last) elapsedUs = Math.max(elapsedUs, Number(last));
    // The segment muxer reports no size: the first frame or tick of output time is the signal.
    if (elapsedUs > 0 || /frame=[1-9]/.test(progressText)) received = true;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
    refused ??= refusalIn(settings.input, errors);
    if (refused) child.kill('SIGKILL');
  });
  /** Whether ffmpeg recorded the most it was asked to (it then ends by itself, exit 0). */
  const reachedLimit = () =>
    settings.maxSeconds !== undefined && elapsedUs / 1e6 >= settings.maxSeconds - LIMIT_TOLERANCE_SECONDS;
  const onAbort = () => child.kill('SIGKILL');
  signal.addEventListener('abort', onAbort, { once: true });
  const ended = new Promise<void>((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`ffmpeg could not start: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else if (refused) {
        const why = refused;
        removeSegmentsFrom(settings.dir, startNumber).then(
          () => reject(why),
          () => reject(why),
        );
      }
      // ffmpeg answers an interrupt by closing its files and exiting 255; a stream whose sender went away ends 0.
      else if (stopping || (code === 0 && (settings.input.kind !== 'test' || reachedLimit()))) resolve();
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
    receiving: () => received,
    reachedLimit,
    stop: async () => {
      // Once: a second SIGINT makes ffmpeg drop the segment it is finishing (a schedule lost its last 1.9 s).
      if (stopping) {
        await ended.catch(() => undefined);
        return;
      }
      stopping = true;
      child.kill('SIGINT');
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended.catch(() => undefined).finally(() => clearTimeout(kill));
    },
    ended,
  };
  return recording;
};

/** The file a recording is joined into (the StreamIngestService's `recordingFormat`). */
export type RecordingFormat = 'mp4' | 'ts' | 'mxf';

/** How each recording format is written: the segments' picture as it is, the sound as the format takes it. */
const JOINED: Readonly<Record<RecordingFormat, string[]>> = {
  mp4: ['-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', '-f', 'mp4'],
  ts: ['-c', 'copy', '-f', 'mpegts'],
  // MXF carries sound as 48 kHz PCM only.
  mxf: ['-c:v', 'copy', '-c:a', 'pcm_s16le', '-ar', '48000', '-f', 'mxf'],
};

/**
 * Joins the segments of a recording into one file of `format` (MP4 by default, index first) without encoding
 * the picture again; `output` appears only when complete. The recording time goes into its metadata, so two
 * recordings of the same picture are two files. Answers the number of segments joined; none is an error.
 */
export const joinSegments = async (options: {
  dir: string;
  output: string;
  recordedAt: Date;
  format?: RecordingFormat;
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
  const format = options.format ?? 'mp4';
  await writeAtomically(options.output, `.${format}`, (temp) =>
    runTool(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list],
        ...['-map', '0', ...JOINED[format]],
        ...['-metadata', `creation_time=${options.recordedAt.toISOString()}`, temp],
      ],
      { signal: options.signal },
    ).then(() => undefined),
  );
  return segments.length;
};
