/** spec1 §9: retries wait 1 s × 2^(failures − 1), capped at 32 s. */
export const RETRY_BACKOFF_CAP_MS = 32_000;

export const backoffDelay = (failures: number) =>
  Math.min(RETRY_BACKOFF_CAP_MS, 1000 * 2 ** Math.max(0, failures - 1));

/** spec1 §8: long-poll answers retried with backoff (0 and -1 stand for network failures and time-outs). */
export const LONGPOLL_RETRY_STATUSES: readonly number[] = [502, 0, -1];
/** spec1 §8: subscribe answers retried with backoff. */
export const SUBSCRIBE_RETRY_STATUSES: readonly number[] = [502, 429, 0, 401];

export const MSG_UPDATES_FAILED = (message: string) => `Error fetching updates: ${message}`;
export const MSG_SUBSCRIBE_FAILED = 'Error subscribing to updates';
