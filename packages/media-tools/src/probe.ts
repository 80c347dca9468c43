import fs from 'node:fs';
import { runTool } from './run.ts';

/** What ffprobe sees in a file. */
export type MediaProbe = {
  /** Seconds; null when ffprobe cannot tell. */
  duration: number | null;
  width: number | null;
  height: number | null;
  /** Frames per second of the video stream (r_frame_rate), null without video. */
  fps: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  hasVideo: boolean;
  hasAudio: boolean;
  /** Whether the MP4/MOV index (moov) comes before the media data (faststart); null for other containers. */
  moovFirst: boolean | null;
};

type FfprobeOutput = {
  format?: { duration?: string; format_name?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    r_frame_rate?: string;
    disposition?: { attached_pic?: number };
  }[];
};

const rate = (text: string | undefined) => {
  const [n, d = '1'] = (text ?? '').split('/');
  const value = Number(n) / Number(d);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) / 1000 : null;
};

/** The order of the top-level boxes of an MP4/MOV file: whether 'moov' comes before 'mdat'. */
const moovBeforeMdat = async (file: string): Promise<boolean | null> => {
  const handle = await fs.promises.open(file, 'r').catch(() => undefined);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let boxes = 0; offset + 8 <= size && boxes < 1000; boxes++) {
      await handle.read(header, 0, 16, offset);
      let length = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (type === 'moov') return true;
      if (type === 'mdat') return false;
      if (length === 1) length = Number(header.readBigUInt64BE(8));
      if (length < 8) return null;
      offset += length;
    }
    return null;
  } finally {
    await handle.close();
  }
};

/** What ffprobe sees in a file (or URL ffprobe can read); null when it holds no audio or video it can read. */
export const probe = async (
  input: string,
  options: { signal?: AbortSignal } = {},
): Promise<MediaProbe | null> => {
  let output: FfprobeOutput;
  try {
    const { stdout } = await runTool(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input],
      { signal: options.signal, timeoutMs: 60_000 },
    );
    output = JSON.parse(stdout.toString()) as FfprobeOutput;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return null;
  }
  const streams = output.streams ?? [];
  // A cover picture in an audio file is not video.
  const video = streams.find(
    (s) => s.codec_type === 'video' && s.width && s.height && !s.disposition?.attached_pic,
  );
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video && !audio) return null;
  const duration = Number(output.format?.duration ?? video?.duration ?? audio?.duration);
  const isMp4 = /mp4|mov/.test(output.format?.format_name ?? '');
  return {
    duration: Number.isFinite(duration) && duration > 0 ? duration : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    fps: video ? rate(video.r_frame_rate) : null,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    moovFirst: isMp4 && !/^[a-z]+:\/\//i.test(input) ? await moovBeforeMdat(input) : null,
  };
};
