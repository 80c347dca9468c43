import { writeAtomically } from './files.ts';
import { runTool } from './run.ts';

/** A JPEG of one frame (1 s in, or the first frame of a shorter file), `width` wide, to `output`. */
export const makePoster = async (options: {
  input: string;
  output: string;
  duration: number | null;
  width?: number;
  signal?: AbortSignal;
}) => {
  const at = options.duration && options.duration > 2 ? '1' : '0';
  await writeAtomically(options.output, '.jpg', (temp) =>
    runTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-ss',
        at,
        '-i',
        options.input,
        '-frames:v',
        '1',
        '-vf',
        `scale=${options.width ?? 320}:-2`,
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        '-q:v',
        '4',
        temp,
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
  const frames = options.frames ?? 10;
  const width = options.width ?? 160;
  const duration = options.duration && options.duration > 0 ? options.duration : 1;
  // One frame every duration/frames seconds; a short file repeats its last frame to fill the strip.
  const every = duration / frames;
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
        `fps=1/${every.toFixed(4)}:round=down,scale=${width}:-2,tile=${frames}x1:padding=0`,
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        '-q:v',
        '5',
        temp,
      ],
      { signal: options.signal, timeoutMs: 300_000 },
    ).then(() => undefined),
  );
};
