import type { ProxyPlan } from '@media/contract';
import { writeAtomically } from './files.ts';
import { progressReader, runTool } from './run.ts';
import {
  FILMSTRIP_FRAMES,
  FILMSTRIP_WIDTH,
  filmstripFilter,
  jpegOutput,
  POSTER_WIDTH,
  posterSecond,
} from './thumbs.ts';

export type ProxyJob = {
  input: string;
  /** The MP4 to write; it appears only when complete (written beside it first, then renamed). */
  output: string;
  /** Size, frame rate and padding from the contract's `proxyPlan`. */
  plan: ProxyPlan;
  /** The input's duration in seconds, for the percentage; progress is not reported without it. */
  duration: number | null;
  /** Whether the input has a picture; false makes an audio-only MP4. */
  hasVideo?: boolean;
  /** Whether the input has sound; false makes a proxy without an audio track. */
  hasAudio?: boolean;
  /** Kills ffmpeg; the promise rejects with the signal's reason and no output is left. */
  signal?: AbortSignal;
  /** Percent done, 0-100, at most a few times a second. */
  onProgress?: (percent: number) => void;
  /** Threads ffmpeg may use (default: ffmpeg's choice). */
  threads?: number;
  /**
   * A poster and a filmstrip of the proxy's picture (as `makePoster` and `makeFilmstrip` make them from the
   * proxy), made in the same pass: the frames are decoded once. Ignored for a file without picture.
   */
  thumbnails?: { poster: string; filmstrip: string };
};

type Outputs = { proxy: string; poster?: string; filmstrip?: string };

/** The proxy's picture encoding (H.264 high, yuv420p, CRF 23) at a frame rate; clips are rendered the same. */
export const h264Arguments = (fps: number) => [
  '-r',
  String(fps),
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-profile:v',
  'high',
  '-pix_fmt',
  'yuv420p',
  '-crf',
  '23',
];

/** The proxy's sound encoding: AAC stereo at 128 kb/s. */
export const AAC_ARGUMENTS = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];

/**
 * The ffmpeg arguments of a proxy (also used by the ingest benchmark to time bare ffmpeg), with the poster
 * and filmstrip outputs when `outputs` names them.
 */
export const proxyArguments = (job: Omit<ProxyJob, 'signal' | 'onProgress'>, outputs: Outputs) => {
  const { plan } = job;
  const video = job.hasVideo !== false;
  const audio = job.hasAudio !== false;
  const picture = `scale=${plan.contentWidth}:${plan.contentHeight},pad=${plan.width}:${plan.height}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  const { poster, filmstrip } = outputs;
  const thumbnails = video && poster && filmstrip;
  const encode = h264Arguments(plan.fps);
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-i',
    job.input,
    ...(job.threads ? ['-threads', String(job.threads)] : []),
    ...(thumbnails
      ? [
          '-filter_complex',
          `[0:v:0]${picture},split=3[proxy][poster][filmstrip];` +
            `[poster]setpts=PTS-STARTPTS,trim=start=${posterSecond(job.duration)},scale=${POSTER_WIDTH}:-2[posterout];` +
            `[filmstrip]${filmstripFilter(job.duration, FILMSTRIP_FRAMES, FILMSTRIP_WIDTH, true)}[filmstripout]`,
          '-map',
          '[proxy]',
          ...encode,
        ]
      : video
        ? ['-map', '0:v:0', '-vf', picture, ...encode]
        : ['-vn']),
    ...(audio ? ['-map', '0:a:0', ...AAC_ARGUMENTS] : ['-an']),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    outputs.proxy,
    ...(thumbnails
      ? [
          '-map',
          '[posterout]',
          ...jpegOutput(4, poster),
          '-map',
          '[filmstripout]',
          ...jpegOutput(5, filmstrip, true),
        ]
      : []),
  ];
};

/**
 * H.264 (yuv420p) + AAC in MP4 with `+faststart`, at the plan's size, frame rate and aspect (padded),
 * and the poster and filmstrip when asked. A file without audio gets no audio track; without video, an
 * audio-only MP4. Rejects with ffmpeg's last lines of stderr when it fails, leaving none of its outputs.
 */
export const makeProxy = async (job: ProxyJob): Promise<void> => {
  const onStdout = progressReader(job.duration, job.onProgress);
  const run = (outputs: Outputs) =>
    runTool('ffmpeg', ['-progress', 'pipe:1', '-nostats', ...proxyArguments(job, outputs)], {
      signal: job.signal,
      onStdout,
    }).then(() => undefined);
  const thumbnails = job.hasVideo !== false ? job.thumbnails : undefined;
  // The thumbnails are renamed into place before the proxy: a proxy that is there has its thumbnails.
  await writeAtomically(job.output, '.mp4', (proxy) =>
    thumbnails
      ? writeAtomically(thumbnails.poster, '.jpg', (poster) =>
          writeAtomically(thumbnails.filmstrip, '.jpg', (filmstrip) => run({ proxy, poster, filmstrip })),
        )
      : run({ proxy }),
  );
  job.onProgress?.(100);
};
