import type { LiveUpdate } from '@media/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './client.ts';
import { createChannelManager } from './live-updates.ts';

type Step = (path: string, body: unknown) => Promise<unknown>;

/** A scripted server: each long-poll takes the next answer; the script ends by stopping the manager. */
const setup = (polls: (() => Promise<LiveUpdate[]>)[], extra: { subscribe?: Step; create?: Step } = {}) => {
  const calls: string[] = [];
  const sleeps: number[] = [];
  const errors: string[] = [];
  let eventNumber = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  // biome-ignore lint/suspicious/noExplicitAny: the fake answers whatever each call expects
  const request = vi.fn(async (path: string, options?: { body?: unknown }): Promise<any> => {
    calls.push(path);
    if (path === '/api/events/create') {
      if (extra.create) return extra.create(path, options?.body);
      eventNumber += 1;
      return { eventId: `e${eventNumber}` };
    }
    if (path.endsWith('/subscribe'))
      return extra.subscribe ? extra.subscribe(path, options?.body) : { ok: true };
    const next = polls.shift();
    if (!next) {
      manager.stop();
      done();
      return new Promise(() => {});
    }
    return next();
  });
  const manager = createChannelManager({
    request: request as never,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    reportError: (text) => {
      errors.push(text);
      done();
    },
  });
  return { manager, calls, sleeps, errors, finished };
};

const update = (channel: string, modified: number[]): LiveUpdate => ({
  channel,
  timestamp: 1,
  data: { modified },
});
const fail =
  (status: number, message = 'failed') =>
  () =>
    Promise.reject(new ApiError(message, status));

describe('live-update channel manager (spec1 §4, §8)', () => {
  it('creates an event id, subscribes, asks for one refetch, then hands each update to the callbacks of its channel', async () => {
    const { manager, calls, finished } = setup([
      async () => [update('a', [1]), update('b', [2])],
      async () => [update('a', [3])],
    ]);
    const seen: unknown[] = [];
    manager.subscribe('a', (data) => seen.push(data.modified));
    await finished;
    expect(calls.slice(0, 2)).toEqual(['/api/events/create', '/api/events/e1/subscribe']);
    expect(seen).toEqual([[], [1], [3]]);
  });

  it('polls again at once after a 504, and backs off 1 s, 2 s, 4 s after 502, network failures and time-outs', async () => {
    const { manager, sleeps, finished } = setup([
      fail(504),
      fail(502),
      fail(0),
      fail(-1),
      async () => [],
      fail(502),
    ]);
    manager.subscribe('a', () => {});
    await finished;
    expect(sleeps).toEqual([1000, 2000, 4000, 1000]);
  });

  it('on 410 creates a new event id, subscribes again and calls every callback with empty data', async () => {
    const { manager, calls, finished } = setup([fail(410), async () => [update('a', [9])]]);
    const seen: unknown[] = [];
    manager.subscribe('a', (data) => seen.push(data.modified));
    manager.subscribe('b', (data) => seen.push(['b', ...data.modified]));
    await finished;
    expect(calls.filter((c) => c === '/api/events/create')).toHaveLength(2);
    expect(calls).toContain('/api/events/e2/subscribe');
    expect(calls).toContain('/api/events/e2/longpoll');
    // Once on connecting, once after the expiry, then the update.
    expect(seen).toEqual([[], ['b'], [], ['b'], [9]]);
  });

  it("shows 'Error fetching updates: {message}' for any other failure and stops", async () => {
    const { manager, errors, finished, calls } = setup([fail(500, 'Boom (internal)')]);
    manager.subscribe('a', () => {});
    await finished;
    expect(errors).toEqual(['Error fetching updates: Boom (internal)']);
    expect(calls.filter((c) => c.endsWith('/longpoll'))).toHaveLength(1);
  });

  it("retries subscribe on 502, 429, 0 and 401 with backoff, and shows 'Error subscribing to updates' otherwise", async () => {
    const answers = [502, 429, 0, 401];
    const first = setup([async () => []], {
      subscribe: async () => {
        const status = answers.shift();
        if (status !== undefined) throw new ApiError('no', status);
        return { ok: true };
      },
    });
    first.manager.subscribe('a', () => {});
    await first.finished;
    expect(first.sleeps.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);

    const second = setup([async () => new Promise(() => {})], {
      subscribe: async () => Promise.reject(new ApiError('no', 403)),
    });
    second.manager.subscribe('a', () => {});
    await second.finished;
    expect(second.errors).toEqual(['Error subscribing to updates']);
  });

  it('stops at once when asked (sign-out): the waiting long-poll is aborted and nothing is reported', async () => {
    const errors: string[] = [];
    let aborted = false;
    let polling: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      polling = resolve;
    });
    const manager = createChannelManager({
      request: (async (path: string, options?: { signal?: AbortSignal }) => {
        if (path === '/api/events/create') return { eventId: 'e1' };
        if (path.endsWith('/subscribe')) return { ok: true };
        polling();
        return new Promise((_, reject) =>
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          }),
        );
      }) as never,
      sleep: async () => {},
      reportError: (text) => errors.push(text),
    });
    manager.subscribe('a', () => {});
    await started;
    expect(manager.stop()).toBe('e1');
    await vi.waitFor(() => expect(aborted).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors).toEqual([]);
  });
});
