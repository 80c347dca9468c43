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

/** What ffprobe sees in a file (or URL ffprobe can read); null when it holds no audio or video it can read. */
export declare const probe: (input: string, options?: { signal?: AbortSignal }) => Promise<MediaProbe | null>;
