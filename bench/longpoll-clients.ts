import net from 'node:net';

/**
 * Long-polling pages of bench/longpoll.ts, in a process of their own: a process holds as many sockets as its
 * open-file limit allows, so 20,000 pages are spread over several of these. Each page does what the web app's
 * live-update channel does: create an event id, subscribe, then long-poll again after every answer.
 *
 * Each page is one kept-alive HTTP/1.1 connection spoken by hand (a request written whole, an answer read by
 * its Content-Length), not an HTTP client library: the pages share the server's two CPUs, and what they spend
 * reading 20,000 answers at once would be counted against the server's delivery time.
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
const reportFailure = (error: unknown) =>
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });

const HEADERS_END = Buffer.from('\r\n\r\n');

/** One page's connection: one request at a time, as a browser's kept-alive connection carries them. */
class PageConnection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private answer:
    | { resolve: (body: string) => void; reject: (error: Error) => void; what: string }
    | undefined;

  constructor(
    url: URL,
    private readonly fixedHeaders: string,
  ) {
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  /** Sends a request and resolves with the answer's body (status 200), or rejects. */
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<string> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const head =
      `${method} ${path} HTTP/1.1\r\n${this.fixedHeaders}` +
      (body === undefined
        ? '\r\n'
        : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n`);
    return new Promise((resolve, reject) => {
      this.answer = { resolve, reject, what: `${method} ${path}` };
      this.socket.write(head + payload);
    });
  }

  close() {
    this.answer = undefined;
    this.socket.destroy();
  }

  private read(chunk: Buffer) {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headersEnd = this.buffered.indexOf(HEADERS_END);
    if (headersEnd < 0) return;
    const head = this.buffered.subarray(0, headersEnd).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const bodyStart = headersEnd + HEADERS_END.length;
    if (this.buffered.length < bodyStart + length) return;
    const body = this.buffered.subarray(bodyStart, bodyStart + length).toString('utf8');
    this.buffered = this.buffered.subarray(bodyStart + length);
    const answer = this.answer;
    this.answer = undefined;
    const status = Number(head.slice(9, 12));
    if (status === 200) answer?.resolve(body);
    else answer?.reject(new Error(`${answer.what}: ${status} ${body.slice(0, 200)}`));
  }

  private fail(error: Error) {
    const answer = this.answer;
    this.answer = undefined;
    answer?.reject(error);
  }
}

const open = (input: ClientsStart) => {
  const url = new URL(input.base);
  const fixedHeaders = `host: ${url.host}\r\ncookie: ${input.cookie}\r\nx-csrftoken: ${input.csrf}\r\n`;
  const connections: PageConnection[] = [];
  const arrivals: number[] = [];
  let polls = 0;
  let stopped = false;
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    // The bench reads what arrived by its deadline, then the pages still waiting are stopped.
    stopped = true;
    send({ type: 'received', arrivals, polls });
    for (const connection of connections) connection.close();
    process.exit(0);
  });

  let sent = 0;
  const page = async (connection: PageConnection) => {
    const { results } = JSON.parse(await connection.call('POST', '/api/events/create', {})) as {
      results: { eventId: string };
    };
    await connection.call('POST', `/api/events/${results.eventId}/subscribe`, { channels: [input.channel] });
    return async () => {
      for (let first = true; ; first = false) {
        const answer = connection.call('GET', `/api/events/${results.eventId}/longpoll`);
        if (first && ++sent === input.pages) send({ type: 'polling' });
        // An answer with a change lists it; an empty one is `{"results":[]}`.
        const changed = !(await answer).startsWith('{"results":[]');
        polls += 1;
        if (changed) {
          arrivals.push(Date.now());
          if (arrivals.length === input.pages) send({ type: 'received', arrivals, polls });
          return;
        }
      }
    };
  };
  const failed = (error: unknown) => {
    if (!stopped) reportFailure(error);
  };

  return (async () => {
    // Opened 50 at a time, then all start polling.
    const polling: (() => Promise<void>)[] = [];
    for (let i = 0; i < input.pages; i += 50) {
      const batch = Array.from({ length: Math.min(50, input.pages - i) }, () => {
        const connection = new PageConnection(url, fixedHeaders);
        connections.push(connection);
        return page(connection);
      });
      polling.push(...(await Promise.all(batch)));
    }
    for (const poll of polling) poll().catch(failed);
  })();
};

process.once('message', (message: ClientsStart) => {
  open(message).catch(reportFailure);
});
