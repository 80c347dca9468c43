import type { ProxyPlan } from '@media/contract';

export type ProxyJob = {
  input: string;
  /** The MP4 to write; it appears only when complete (written beside it first, then renamed). */
  output: string;
  /** Size, frame rate and padding from the contract's `proxyPlan`. */
  plan: ProxyPlan;
  /** The input's duration in seconds, for the percentage; progress is not reported without it. */
  duration: number | null;
  /** Kills ffmpeg; the promise rejects with the signal's reason and no output is left. */
  signal?: AbortSignal;
  /** Percent done, 0-100, at most a few times a second. */
  onProgress?: (percent: number) => void;
  /** Threads ffmpeg may use (default: ffmpeg's choice). */
  threads?: number;
};

/**
 * H.264 (yuv420p) + AAC in MP4 with `+faststart`, at the plan's size, frame rate and aspect (padded).
 * A file without audio gets no audio track; without video, an audio-only MP4. Rejects with ffmpeg's last
 * lines of stderr when it fails.
 */
export declare const makeProxy: (job: ProxyJob) => Promise<void>;
