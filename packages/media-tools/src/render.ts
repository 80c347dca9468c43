import { writeAtomically } from './files.ts';
import { AAC_ARGUMENTS, h264Arguments } from './proxy.ts';
import { progressReader, runTool } from './run.ts';

/** One piece of an edl: frames [inFrame, outFrame) of a file, counted at the edl's frame rate. */
export type RenderPiece = {
  input: string;
  inFrame: number;
  outFrame: number;
  /** Whether the file has a picture; without, the piece is black. */
  hasVideo: boolean;
  /** Whether the file has sound; without, the piece is silent. */
  hasAudio: boolean;
};

export type RenderJob = {
  pieces: RenderPiece[];
  /** The edl's frame rate: its frames are the output's frames. */
  fps: number;
  /** The picture size (even numbers); every piece is scaled into it and padded. */
  width: number;
  height: number;
  /** The MP4 to write; it appears only when complete. */
  output: string;
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
  threads?: number;
};

const SAMPLE_RATE = 48_000;

/** Seconds of a frame count at a frame rate, as ffmpeg reads them (exact to the microsecond). */
const seconds = (frames: number, fps: number) => (frames / fps).toFixed(6);

/** The duration in seconds of an edl's pieces: their frames over its frame rate. */
export const renderedDuration = (pieces: readonly Pick<RenderPiece, 'inFrame' | 'outFrame'>[], fps: number) =>
  pieces.reduce((total, piece) => total + (piece.outFrame - piece.inFrame) / fps, 0);

/**
 * The filter graph of a render: each piece trimmed to its frames (time-based at the edl's rate, then set to
 * exactly that rate), scaled and padded to one size, with its sound or silence of the same length, and all
 * concatenated in order.
 */
export const renderFilter = (job: Pick<RenderJob, 'pieces' | 'fps' | 'width' | 'height'>) => {
  const { fps, width, height } = job;
  const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p`;
  const parts: string[] = [];
  const labels: string[] = [];
  job.pieces.forEach((piece, index) => {
    const start = seconds(piece.inFrame, fps);
    const end = seconds(piece.outFrame, fps);
    const length = seconds(piece.outFrame - piece.inFrame, fps);
    const frames = piece.outFrame - piece.inFrame;
    parts.push(
      piece.hasVideo
        ? `[${index}:v:0]trim=start=${start}:end=${end},setpts=PTS-STARTPTS,fps=${fps},${fit},trim=end_frame=${frames}[v${index}]`
        : `color=c=black:s=${width}x${height}:r=${fps}:d=${length},format=yuv420p[v${index}]`,
      piece.hasAudio
        ? `[${index}:a:0]atrim=start=${start}:end=${end},asetpts=PTS-STARTPTS,aresample=${SAMPLE_RATE},aformat=channel_layouts=stereo,apad=whole_dur=${length},atrim=end=${length}[a${index}]`
        : `anullsrc=r=${SAMPLE_RATE}:cl=stereo,atrim=end=${length}[a${index}]`,
    );
    labels.push(`[v${index}][a${index}]`);
  });
  return `${parts.join(';')};${labels.join('')}concat=n=${job.pieces.length}:v=1:a=1[video][audio]`;
};

/**
 * Renders an edl into one playable MP4 (the proxy's H.264 + AAC, `+faststart`): frame-accurate cuts of its
 * pieces joined in order, so its duration is the sum of (out − in) / fps. Leaves nothing when it fails.
 */
export const renderEdl = async (job: RenderJob): Promise<void> => {
  if (job.pieces.length === 0) throw new Error('An edl without pieces cannot be rendered');
  const inputs = job.pieces.flatMap((piece) => ['-i', piece.input]);
  const onStdout = progressReader(renderedDuration(job.pieces, job.fps), job.onProgress);
  await writeAtomically(job.output, '.mp4', (output) =>
    runTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-progress',
        'pipe:1',
        '-nostats',
        ...inputs,
        ...(job.threads ? ['-threads', String(job.threads)] : []),
        '-filter_complex',
        renderFilter(job),
        '-map',
        '[video]',
        '-map',
        '[audio]',
        ...h264Arguments(job.fps),
        ...AAC_ARGUMENTS,
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        output,
      ],
      { signal: job.signal, onStdout },
    ).then(() => undefined),
  );
  job.onProgress?.(100);
};
