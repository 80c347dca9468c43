/** A JPEG of one frame (1 s in, or the first frame of a shorter file), `width` wide, to `output`. */
export declare const makePoster: (options: {
  input: string;
  output: string;
  duration: number | null;
  width?: number;
  signal?: AbortSignal;
}) => Promise<void>;

/**
 * A filmstrip for scrubbing: `frames` frames evenly spread over the duration, each `width` wide, side by
 * side in one JPEG, to `output`.
 */
export declare const makeFilmstrip: (options: {
  input: string;
  output: string;
  duration: number | null;
  frames?: number;
  width?: number;
  signal?: AbortSignal;
}) => Promise<void>;
