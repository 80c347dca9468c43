/** How a queue's jobs are retried and limited; stored with the queue, so every instance applies the same. */
export type QueueSettings = {
  /** How many times a failed job is tried again before it stays failed. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff each next wait doubles (with jitter). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A job running longer is aborted (its signal fires) and failed, so it is retried. */
  timeLimitSeconds: number;
};

/** A named queue and the shape of its jobs' data (ids and options, never secrets: job rows are kept for days). */
export type JobQueue<Data extends object> = QueueSettings & {
  name: string;
  /** Carries the data type only. */
  readonly data?: Data;
};

export const defineQueue = <Data extends object>(name: string, settings: QueueSettings): JobQueue<Data> => ({
  name,
  ...settings,
});

export type Job<Data> = {
  id: string;
  data: Data;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Fires at the queue's time limit and when the server stops: stop the work (kill ffmpeg, end uploads). */
  signal: AbortSignal;
  /** Whether this instance is stopping: a failure then is the stop's, not the job's (it runs again). */
  stopping: () => boolean;
};

/** Resolves when the job is done; a rejection fails the attempt and pg-boss retries it. */
export type JobHandler<Data> = (job: Job<Data>) => Promise<void>;
