import {
  backoffDelay,
  type LiveUpdate,
  LONGPOLL_RETRY_STATUSES,
  MSG_SUBSCRIBE_FAILED,
  MSG_UPDATES_FAILED,
  SUBSCRIBE_RETRY_STATUSES,
} from '@media/contract';
import { ApiError, type RequestOptions } from './client.ts';

export type LiveCallback = (data: LiveUpdate['data']) => void;

type Dependencies = {
  request: <T>(path: string, options?: RequestOptions) => Promise<T>;
  sleep: (ms: number) => Promise<void>;
  /** A permanent danger alert. */
  reportError: (text: string) => void;
};

/** The status the spec's rules speak of: the HTTP status, 0 for a network failure. */
const statusOf = (error: unknown) => (error instanceof ApiError ? error.status : 0);

/**
 * The client side of live updates (spec1 §4, §8): one event id per page, subscriptions per channel, a
 * long-poll loop; 504 polls again at once, 502/0/-1 back off, 410 starts over with a new event id and
 * tells every callback (with empty data) to refetch; other failures stop with a permanent alert.
 */
export const createChannelManager = (deps: Dependencies) => {
  const callbacks = new Map<string, Set<LiveCallback>>();
  let eventId: string | undefined;
  let running = false;
  let stopped = false;
  /** Ends the request in flight when the manager stops (sign-out, page unload). */
  const aborter = new AbortController();
  const signal = aborter.signal;

  const withBackoff = async <T>(
    call: () => Promise<T>,
    retryable: (status: number) => boolean,
  ): Promise<T> => {
    let failures = 0;
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!retryable(statusOf(error)) || stopped) throw error;
        failures += 1;
        await deps.sleep(backoffDelay(failures));
      }
    }
  };

  const createEvent = async () => {
    const created = await withBackoff(
      () => deps.request<{ eventId: string }>('/api/events/create', { method: 'POST', body: {}, signal }),
      () => true,
    );
    eventId = created.eventId;
    return eventId;
  };

  const subscribeChannels = async (channels: string[]) => {
    if (!eventId || channels.length === 0) return;
    try {
      await withBackoff(
        () =>
          deps.request(`/api/events/${eventId}/subscribe`, {
            method: 'POST',
            body: { channels },
            noRelogin: true,
          }),
        (status) => SUBSCRIBE_RETRY_STATUSES.includes(status),
      );
    } catch (error) {
      if (statusOf(error) === 410) await restart();
      else deps.reportError(MSG_SUBSCRIBE_FAILED);
    }
  };

  /** Tells the callbacks of these channels to refetch (empty data). */
  const refetch = (channels: Iterable<string>) => {
    for (const channel of channels)
      for (const callback of callbacks.get(channel) ?? []) callback({ modified: [] });
  };

  /**
   * A new event id and every channel again, then every callback told to refetch: after an expiry (spec1
   * §4), and also on the first connection, since a list loaded before its subscription may have missed a change.
   */
  const restart = async () => {
    eventId = undefined;
    await createEvent();
    await subscribeChannels([...callbacks.keys()]);
    refetch([...callbacks.keys()]);
  };

  const pollLoop = async () => {
    let failures = 0;
    while (!stopped) {
      try {
        if (!eventId) await restart();
        const updates = await deps.request<LiveUpdate[]>(`/api/events/${eventId}/longpoll`, { signal });
        failures = 0;
        for (const update of updates)
          for (const callback of callbacks.get(update.channel) ?? []) callback(update.data);
      } catch (error) {
        if (stopped) break;
        const status = statusOf(error);
        if (status === 504) continue;
        if (LONGPOLL_RETRY_STATUSES.includes(status)) {
          failures += 1;
          await deps.sleep(backoffDelay(failures));
          continue;
        }
        if (status === 410) {
          eventId = undefined;
          continue;
        }
        deps.reportError(MSG_UPDATES_FAILED(error instanceof Error ? error.message : String(error)));
        running = false;
        return;
      }
    }
    running = false;
  };

  return {
    /** Receive the changes of a channel; answers the function that stops receiving them. */
    subscribe(channel: string, callback: LiveCallback) {
      const isNew = !callbacks.has(channel);
      const set = callbacks.get(channel) ?? new Set();
      set.add(callback);
      callbacks.set(channel, set);
      // Refetch once subscribed, so nothing between the list's load and the subscription is lost.
      if (isNew && eventId) void subscribeChannels([channel]).then(() => refetch([channel]));
      if (!running && !stopped) {
        running = true;
        void pollLoop();
      }
      return () => {
        set.delete(callback);
        if (set.size === 0) callbacks.delete(channel);
      };
    },
    /** Forget the event id (on page unload). */
    stop() {
      stopped = true;
      aborter.abort();
      return eventId;
    },
    get eventId() {
      return eventId;
    },
  };
};
