import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';

const root = path.resolve(import.meta.dirname, '..');
const POLLERS = Number(process.env.BENCH_POLLERS ?? 2000);
const PASSWORD = 'Bench-Passw0rd!';
const CHANNEL = 'cloud/loginLockouts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const rssKb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** DESIGN.md: 2,000 long-pollers on one instance; one change reaches all within 1 s. */
export const runLongPollBenchmark = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-longpoll-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'error',
      LOCAL_EDGE: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LONG_POLL_SECONDS: '25',
    },
    stdio: 'ignore',
  });
  const agent = new Agent({
    connections: POLLERS + 50,
    pipelining: 0,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  try {
    for (let i = 0; i < 200; i++) {
      const ok = await request(`${base}/config/apiVersions.json`, { dispatcher: agent }).then(
        async (r) => {
          await r.body.text();
          return r.statusCode === 200;
        },
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const cookies = new Map<string, string>();
    const remember = (headers: Record<string, string | string[] | undefined>) => {
      const set = headers['set-cookie'];
      for (const line of Array.isArray(set) ? set : set ? [set] : []) {
        const [pair] = line.split(';');
        const [name, value] = (pair ?? '').split('=');
        if (name && value !== undefined) cookies.set(name, value);
      }
    };
    const cookieHeader = () => [...cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await request(`${base}${url}`, {
        method,
        dispatcher: agent,
        headers: {
          cookie: cookieHeader(),
          'content-type': 'application/json',
          'x-csrftoken': cookies.get('csrftoken') ?? '',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      remember(response.headers);
      const text = await response.body.text();
      if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
      return JSON.parse(text) as { results: unknown };
    };
    await call('GET', '/api/passwordRules');
    await call('POST', '/api/login', { username: 'admin', password: PASSWORD });

    const eventIds: string[] = [];
    for (let i = 0; i < POLLERS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, POLLERS - i) }, async () => {
          const { eventId } = (await call('POST', '/api/events/create', {})).results as { eventId: string };
          await call('POST', `/api/events/${eventId}/subscribe`, { channels: [CHANNEL] });
          return eventId;
        }),
      );
      eventIds.push(...batch);
    }
    const serverPid = server.pid as number;
    const rssBefore = rssKb(serverPid);
    const received: number[] = [];
    let changedAt = 0;
    const polls = eventIds.map((eventId) =>
      call('GET', `/api/events/${eventId}/longpoll`).then((body) => {
        if ((body.results as unknown[]).length > 0) received.push(performance.now() - changedAt);
      }),
    );
    // Let every long-poll reach its wait.
    await new Promise((resolve) => setTimeout(resolve, Math.max(3000, POLLERS * 3)));
    const rssWaiting = rssKb(serverPid);
    // One change: a sign-in lock-out, lifted through the API.
    for (let attempt = 0; attempt < 5; attempt++) {
      // Timed from the start of the request that makes the change, so the figure errs on the slow side.
      if (attempt === 4) changedAt = performance.now();
      await request(`${base}/api/login`, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          cookie: `csrftoken=${cookies.get('csrftoken')}`,
          'x-csrftoken': cookies.get('csrftoken') ?? '',
        },
        body: JSON.stringify({ username: 'bench-locked', password: 'wrong' }),
      }).then((r) => r.body.text());
    }
    await Promise.race([Promise.allSettled(polls), new Promise((resolve) => setTimeout(resolve, 30_000))]);

    console.log(`${POLLERS} long-pollers on one instance (PGlite), one change on their channel\n`);
    console.log(`received:            ${received.length} of ${POLLERS}`);
    console.log(`delivery p50:        ${percentile(received, 50).toFixed(0)} ms`);
    console.log(
      `delivery p99:        ${percentile(received, 99).toFixed(0)} ms (budget 1000 ms: ${percentile(received, 99) <= 1000 ? 'PASS' : 'BELOW'})`,
    );
    console.log(
      `memory per poller:   ${(((rssWaiting - rssBefore) * 1024) / POLLERS / 1024).toFixed(1)} kB (server RSS ${rssBefore} → ${rssWaiting} kB)`,
    );
    console.log(`ratio received:      ${((received.length / POLLERS) * 100).toFixed(1)}%`);
  } finally {
    server.kill('SIGTERM');
    await agent.close().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};
