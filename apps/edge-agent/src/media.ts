import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type Probe = {
  duration: number | null;
  width: number | null;
  height: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
};

/** The proxies are at most this wide; their height keeps the picture's aspect, rounded to even. */
export const PROXY_MAX_WIDTH = 640;

export const proxySize = (width: number, height: number) => {
  const scale = Math.min(1, PROXY_MAX_WIDTH / width);
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
};

type FfprobeOutput = {
  format?: { duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number; duration?: string }[];
};

/** What ffprobe sees in a file; null when it is not a media file it can read. */
export const probe = async (file: string): Promise<Probe | null> => {
  try {
    const { stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      { maxBuffer: 10 * 1024 * 1024, timeout: 60_000 },
    );
    const output = JSON.parse(stdout) as FfprobeOutput;
    const streams = output.streams ?? [];
    const video = streams.find((stream) => stream.codec_type === 'video' && stream.width && stream.height);
    const hasAudio = streams.some((stream) => stream.codec_type === 'audio');
    if (!video && !hasAudio) return null;
    const duration = Number(output.format?.duration ?? video?.duration);
    return {
      duration: Number.isFinite(duration) && duration > 0 ? duration : null,
      width: video?.width ?? null,
      height: video?.height ?? null,
      hasVideo: video !== undefined,
      hasAudio,
    };
  } catch {
    return null;
  }
};

/** A JPEG of one frame a second in (or the first frame of a shorter file), at proxy size. */
export const thumbnail = async (file: string, info: Probe, width = 320): Promise<Buffer> => {
  const at = info.duration && info.duration > 2 ? '1' : '0';
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      at,
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 4 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout;
};
