import { setMaxListeners } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';

/**
 * The long-polling browser pages of bench/load-mix.ts, in a worker thread so that their client work does
 * not run on the event loop of the server under test. Each page loops as the web app's live-update
 * channel does: create an event id, subscribe, long-poll a number of times, delete it (page left).
 */
export type PollerSession = { cookie: string; csrf: string; channels: string[] };
export type PollersInput = { base: string; sessions: PollerSession[]; pages: number; pollsPerPage: number };
export type PollersResult = {
  /** Client-side latency (ms) of the short calls: create, subscribe, delete. */
  calls: number[];
  /** ms from a change's timestamp to its arrival at a page. */
  delivery: number[];
  longPolls: number;
  pageLoads: number;
  errors: string[];
};

const run = async (input: PollersInput) => {
  const agent = new Agent({
    connections: input.pages + 10,
    pipelining: 0,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const result: PollersResult = { calls: [], delivery: [], longPolls: 0, pageLoads: 0, errors: [] };
  let stopping = false;
  const controller = new AbortController();
  // One signal stops every page's call in flight: hundreds listen to it at once, as meant.
  setMaxListeners(0, controller.signal);

  const call = async (session: PollerSession, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const started = performance.now();
    const response = await request(`${input.base}${url}`, {
      method,
      dispatcher: agent,
      signal: controller.signal,
      headers: {
        cookie: session.cookie,
        'x-csrftoken': session.csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, text, ms: performance.now() - started };
  };

  const short = async (session: PollerSession, url: string, body: unknown) => {
    const answer = await call(session, 'POST', url, body);
    if (answer.status !== 200) throw new Error(`POST ${url}: ${answer.status} ${answer.text.slice(0, 200)}`);
    result.calls.push(answer.ms);
    return JSON.parse(answer.text) as { results: unknown };
  };

  // Tells the bench when every page has loaded once, so that it measures the steady state.
  let loaded = 0;
  const page = async (session: PollerSession) => {
    let first = true;
    while (!stopping) {
      const { eventId } = (await short(session, '/api/events/create', {})).results as { eventId: string };
      await short(session, `/api/events/${eventId}/subscribe`, { channels: session.channels });
      result.pageLoads += 1;
      if (first) {
        first = false;
        loaded += 1;
        if (loaded === input.pages) parentPort?.postMessage('loaded');
      }
      for (let i = 0; i < input.pollsPerPage && !stopping; i++) {
        const answer = await call(session, 'GET', `/api/events/${eventId}/longpoll`);
        if (answer.status === 410) break;
        if (answer.status !== 200) throw new Error(`longpoll: ${answer.status} ${answer.text.slice(0, 200)}`);
        result.longPolls += 1;
        const arrived = Date.now();
        const updates = (JSON.parse(answer.text) as { results: { timestamp: number }[] }).results;
        for (const update of updates) result.delivery.push(arrived - update.timestamp);
      }
      if (!stopping) await short(session, `/api/events/${eventId}/delete`, {});
    }
  };

  const pages = Array.from({ length: input.pages }, (_, i) =>
    page(input.sessions[i % input.sessions.length] as PollerSession).catch((error: unknown) => {
      if (!stopping) result.errors.push(error instanceof Error ? error.message : String(error));
    }),
  );
  parentPort?.on('message', async (message) => {
    if (message === 'measure') {
      // From here on: the steady state.
      Object.assign(result, { calls: [], delivery: [], longPolls: 0, pageLoads: 0 });
      return;
    }
    stopping = true;
    controller.abort();
    await Promise.allSettled(pages);
    await agent.destroy().catch(() => {});
    parentPort?.postMessage(result);
  });
};

void run(workerData as PollersInput);
