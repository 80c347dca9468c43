import { writeAtomically } from './files.ts';
import { runTool } from './run.ts';

export const POSTER_WIDTH = 320;
export const FILMSTRIP_FRAMES = 10;
export const FILMSTRIP_WIDTH = 160;

/** Where a poster is taken, in seconds: 1 s in, or the first frame of a file of 2 s or less. */
export const posterSecond = (duration: number | null) => (duration && duration > 2 ? 1 : 0);

/**
 * The filter that makes a filmstrip of `frames` frames evenly spread over `duration`, each `width` wide.
 * A `rolling` strip is put out again at every frame it takes, ending with the whole strip: beside a proxy,
 * ffmpeg reports no progress until each of its outputs has put out a frame, which a strip made once at the
 * end would hold back until the proxy is done.
 */
export const filmstripFilter = (duration: number | null, frames: number, width: number, rolling = false) => {
  const length = duration && duration > 0 ? duration : 1;
  const roll = rolling ? `:overlap=${frames - 1}:init_padding=${frames - 1}` : '';
  // One frame every length/frames seconds; a short file repeats its last frame to fill the strip.
  return `fps=1/${(length / frames).toFixed(4)}:round=down,scale=${width}:-2,tile=${frames}x1:padding=0${roll}`;
};

/** The output arguments of a JPEG: the first frame it is given, or (`last`) the last, each written over the one before. */
export const jpegOutput = (quality: number, output: string, last = false) => [
  ...(last ? [] : ['-frames:v', '1']),
  '-update',
  '1',
  '-f',
  'image2',
  '-c:v',
  'mjpeg',
  '-q:v',
  String(quality),
  output,
];

/** A JPEG of one frame (1 s in, or the first frame of a shorter file), `width` wide, to `output`. */
export const makePoster = async (options: {
  input: string;
  output: string;
  duration: number | null;
  width?: number;
  signal?: AbortSignal;
}) => {
  await writeAtomically(options.output, '.jpg', (temp) =>
    runTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-ss',
        String(posterSecond(options.duration)),
        '-i',
        options.input,
        '-vf',
        `scale=${options.width ?? POSTER_WIDTH}:-2`,
        ...jpegOutput(4, temp),
      ],
      { signal: options.signal, timeoutMs: 120_000 },
    ).then(() => undefined),
  );
};

/**
 * A filmstrip for scrubbing: `frames` frames evenly spread over the duration, each `width` wide, side by
 * side in one JPEG, to `output`.
 */
export const makeFilmstrip = async (options: {
  input: string;
  output: string;
  duration: number | null;
  frames?: number;
  width?: number;
  signal?: AbortSignal;
}) => {
  await writeAtomically(options.output, '.jpg', (temp) =>
    runTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-i',
        options.input,
        '-vf',
        filmstripFilter(
          options.duration,
          options.frames ?? FILMSTRIP_FRAMES,
          options.width ?? FILMSTRIP_WIDTH,
        ),
        ...jpegOutput(5, temp),
      ],
      { signal: options.signal, timeoutMs: 300_000 },
    ).then(() => undefined),
  );
};
