import { setMaxListeners } from 'node:events';
import { Agent, request } from 'undici';

/**
 * Long-polling pages of bench/longpoll.ts, in a process of their own: a process holds as many sockets as its
 * open-file limit allows, so 20,000 pages are spread over several of these. Each page does what the web app's
 * live-update channel does: create an event id, subscribe, then long-poll again after every answer.
 *
 * Messages from the bench: `start` (the pages to open), then `stop`. To it: `polling` once every page has
 * sent its first long-poll, `received` with each page's arrival time of the first change, `failed`.
 */
export type ClientsStart = {
  type: 'start';
  base: string;
  cookie: string;
  csrf: string;
  channel: string;
  pages: number;
};
export type ClientsMessage =
  | { type: 'polling' }
  | { type: 'received'; arrivals: number[]; polls: number }
  | { type: 'failed'; message: string };

const send = (message: ClientsMessage) => process.send?.(message);

const open = async (input: ClientsStart) => {
  const agent = new Agent({
    connections: input.pages + 10,
    // One request at a time on a kept connection, as a browser does (0 would open a connection per request).
    pipelining: 1,
    // Longer than the server's 25 s window, so that a waiting poll is never cut by the client.
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
    keepAliveTimeout: 120_000,
  });
  const stopping = new AbortController();
  // Every page's call in flight listens to it: thousands at once, as meant.
  setMaxListeners(0, stopping.signal);
  const headers = { cookie: input.cookie, 'x-csrftoken': input.csrf };
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await request(`${input.base}${url}`, {
      method,
      dispatcher: agent,
      signal: stopping.signal,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
    return JSON.parse(text) as { results: unknown };
  };

  const arrivals: number[] = [];
  let polls = 0;
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    // The bench reads what arrived by its deadline, then the pages still waiting are stopped.
    send({ type: 'received', arrivals, polls });
    stopping.abort();
    void agent.destroy().finally(() => process.exit(0));
  });

  const eventIds: string[] = [];
  for (let i = 0; i < input.pages; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, input.pages - i) }, async () => {
        const { eventId } = (await call('POST', '/api/events/create', {})).results as { eventId: string };
        await call('POST', `/api/events/${eventId}/subscribe`, { channels: [input.channel] });
        return eventId;
      }),
    );
    eventIds.push(...batch);
  }

  let sent = 0;
  const page = async (eventId: string) => {
    let first = true;
    for (;;) {
      const answer = call('GET', `/api/events/${eventId}/longpoll`);
      if (first) {
        first = false;
        sent += 1;
        if (sent === eventIds.length) send({ type: 'polling' });
      }
      const { results } = await answer;
      polls += 1;
      if ((results as unknown[]).length > 0) {
        arrivals.push(Date.now());
        if (arrivals.length === eventIds.length) send({ type: 'received', arrivals, polls });
        return;
      }
    }
  };
  for (const eventId of eventIds)
    page(eventId).catch((error: unknown) => {
      if (!stopping.signal.aborted)
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
};

process.once('message', (message: ClientsStart) => {
  open(message).catch((error: unknown) =>
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
