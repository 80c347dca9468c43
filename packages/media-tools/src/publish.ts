import fs from 'node:fs';
import { writeAtomically } from './files.ts';
import { AAC_ARGUMENTS } from './proxy.ts';
import { progressReader, runTool } from './run.ts';

/** The containers the transcode module writes (its Format choice). */
export type TranscodeFormat = 'mp4' | 'mov' | 'webm';
export type WatermarkPosition = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

type Step = {
  input: string;
  /** Written beside itself first, renamed when complete. */
  output: string;
  /** The input's duration in seconds, for the percentage. */
  duration: number | null;
  hasAudio: boolean;
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
};

const runStep = (step: Step, extension: string, args: (output: string) => string[]) =>
  writeAtomically(step.output, extension, (output) =>
    runTool(
      'ffmpeg',
      ['-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats', ...args(output)],
      {
        signal: step.signal,
        onStdout: progressReader(step.duration, step.onProgress),
      },
    ).then(() => undefined),
  ).then(() => step.onProgress?.(100));

const VIDEO_CODECS: Record<TranscodeFormat, string[]> = {
  mp4: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  mov: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  webm: [
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-row-mt',
    '1',
    '-pix_fmt',
    'yuv420p',
  ],
};
const AUDIO_CODECS: Record<TranscodeFormat, string[]> = {
  mp4: AAC_ARGUMENTS,
  mov: AAC_ARGUMENTS,
  webm: ['-c:a', 'libopus', '-b:a', '128k', '-ac', '2'],
};

/** The transcode module: the picture at a bit rate in a container, the sound in its usual codec. */
export const transcodeFile = (step: Step & { format: TranscodeFormat; videoBitrateKbps: number }) =>
  runStep(step, `.${step.format}`, (output) => [
    '-i',
    step.input,
    '-map',
    '0:v:0?',
    ...VIDEO_CODECS[step.format],
    '-b:v',
    `${step.videoBitrateKbps}k`,
    ...(step.hasAudio ? ['-map', '0:a:0', ...AUDIO_CODECS[step.format]] : ['-an']),
    ...(step.format === 'webm' ? [] : ['-movflags', '+faststart']),
    '-f',
    step.format,
    output,
  ]);

const MARGIN = 'h/30';
const PLACES: Record<WatermarkPosition, string> = {
  'top-left': `x=${MARGIN}:y=${MARGIN}`,
  'top-right': `x=w-tw-${MARGIN}:y=${MARGIN}`,
  'bottom-left': `x=${MARGIN}:y=h-th-${MARGIN}`,
  'bottom-right': `x=w-tw-${MARGIN}:y=h-th-${MARGIN}`,
};

/** A path as a filter option: one with filter-graph syntax in it is refused rather than misread. */
const filterPath = (file: string) => {
  if (/[\\:',;[\]=\s]/.test(file))
    throw new Error(`The work folder ${file} cannot be named in an ffmpeg filter`);
  return file;
};

/** The watermark module: a text burnt into a corner of the picture, white on a dim box; the sound copied. */
export const watermarkFile = async (step: Step & { text: string; position: WatermarkPosition }) => {
  // The text goes through a file, so no character of it is read as filter syntax.
  const textFile = `${step.output}.watermark.txt`;
  await fs.promises.writeFile(textFile, step.text);
  try {
    await runStep(step, '.mp4', (output) => [
      '-i',
      step.input,
      '-vf',
      `drawtext=textfile=${filterPath(textFile)}:expansion=none:fontcolor=white:fontsize=h/18:box=1:boxcolor=black@0.4:boxborderw=8:${PLACES[step.position]}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      ...(step.hasAudio ? ['-c:a', 'copy'] : ['-an']),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      output,
    ]);
  } finally {
    await fs.promises.rm(textFile, { force: true });
  }
};
