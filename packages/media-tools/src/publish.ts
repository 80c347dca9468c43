import { writeAtomically } from './files.ts';
import { AAC_ARGUMENTS } from './proxy.ts';
import { progressReader, runTool } from './run.ts';

/** The containers the transcode module writes (its Format choice). */
export type TranscodeFormat = 'mp4' | 'mov' | 'webm';

/** One process step of a publish: an input file made into an output file by one ffmpeg run. */
export type Step = {
  input: string;
  /** Written beside itself first, renamed when complete. */
  output: string;
  /** The input's duration in seconds, for the percentage. */
  duration: number | null;
  hasAudio: boolean;
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
};

/** What every publish step's ffmpeg is told first: no questions, overwrite, progress on stdout. */
const ffmpegArguments = (args: string[]) => [
  '-hide_banner',
  '-nostdin',
  '-y',
  '-progress',
  'pipe:1',
  '-nostats',
  ...args,
];

/** Runs ffmpeg with `args(output)` into a temporary name beside the output, renamed when complete. */
export const runStep = (step: Step, extension: string, args: (output: string) => string[]) =>
  writeAtomically(step.output, extension, (output) =>
    runTool('ffmpeg', ffmpegArguments(args(output)), {
      signal: step.signal,
      onStdout: progressReader(step.duration, step.onProgress),
    }).then(() => undefined),
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

export type TranscodeOptions = {
  input: string;
  hasAudio: boolean;
  format: TranscodeFormat;
  videoBitrateKbps: number;
};

/** The transcode's own arguments, without the common ones. */
const transcodeBody = (options: TranscodeOptions, output: string) => [
  '-i',
  options.input,
  '-map',
  '0:v:0?',
  ...VIDEO_CODECS[options.format],
  '-b:v',
  `${options.videoBitrateKbps}k`,
  ...(options.hasAudio ? ['-map', '0:a:0', ...AUDIO_CODECS[options.format]] : ['-an']),
  ...(options.format === 'webm' ? [] : ['-movflags', '+faststart']),
  '-f',
  options.format,
  output,
];

/**
 * The whole ffmpeg argument list transcodeFile runs to write `output` (for a baseline that does exactly the
 * same work, bench/publish).
 */
export const transcodeArguments = (options: TranscodeOptions, output: string) =>
  ffmpegArguments(transcodeBody(options, output));

/** The transcode module: the picture at a bit rate in a container, the sound in its usual codec. */
export const transcodeFile = (step: Step & TranscodeOptions) =>
  runStep(step, `.${step.format}`, (output) => transcodeBody(step, output));

/** A path as a filter option: one with filter-graph syntax in it is refused rather than misread. */
export const filterPath = (file: string) => {
  if (/[\\:',;[\]=\s]/.test(file))
    throw new Error(`The work folder ${file} cannot be named in an ffmpeg filter`);
  return file;
};

/** The H.264 picture every burning step (watermark, subtitles) writes, the sound copied, index first. */
export const burntArguments = (step: Pick<Step, 'hasAudio'>, output: string) => [
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
];
