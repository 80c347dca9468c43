// Test helpers of the media-tools tests (not exported from the package): ffmpeg's and ffprobe's own
// readings of a file, independent of the code under test.
import { execFileSync } from 'node:child_process';

export type ProbedStream = {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  nb_read_frames?: string;
  duration?: string;
};
export type Probed = { format: { duration: string; format_name: string }; streams: ProbedStream[] };

/** Runs ffmpeg quietly, overwriting its output. */
export const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

/** ffprobe's JSON of the format and streams; `countFrames` decodes to count each stream's frames. */
export const ffprobe = (target: string, options: { countFrames?: boolean } = {}) =>
  JSON.parse(
    execFileSync('ffprobe', [
      ...['-v', 'error', ...(options.countFrames ? ['-count_frames'] : [])],
      ...['-print_format', 'json', '-show_format', '-show_streams', target],
    ]).toString(),
  ) as Probed;

export const streamOf = (info: Probed, type: 'video' | 'audio') =>
  info.streams.find((entry) => entry.codec_type === type);

/** One frame at `seconds`, scaled to width x height grey bytes, for comparing pictures. */
export const greyFrame = (input: string, seconds: string, width: number, height: number) =>
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', seconds, '-i', input, '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${width}x${height}`, '-'],
  ]);

/** `seconds` of a lavfi picture in H.264 (yuv420p), with a 440 Hz tone in AAC unless `sound` is false. */
export const testVideo = (output: string, picture: string, options: { seconds: number; sound?: boolean }) =>
  ffmpeg(
    ...['-f', 'lavfi', '-i', picture],
    ...(options.sound === false
      ? []
      : ['-f', 'lavfi', '-i', 'sine=frequency=440', '-c:a', 'aac', '-shortest']),
    ...['-t', String(options.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    output,
  );
