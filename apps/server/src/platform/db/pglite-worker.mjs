// The embedded database (PGlite) in a worker thread of its own, so that its queries (each a few hundred
// microseconds to milliseconds of WebAssembly) never hold the server's event loop: requests, long-polls and
// static files are answered while it works. Plain JavaScript: a worker thread is started by Node itself,
// without the TypeScript loader of the code that starts it. The other side is pglite-worker-client.ts.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const keepAsText = (/** @type {unknown} */ value) => value;

/** An error as plain data: its message and the fields callers read (code, constraint, detail...). */
const asData = (/** @type {unknown} */ error) => {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = typeof value === 'object' && value !== null ? undefined : value;
  }
  return { message: error.message, name: error.name, fields };
};

/** Rolls a transaction back from inside PGlite's transaction callback (PGlite rolls back on a throw). */
class RollBack extends Error {}

const start = async () => {
  // A dump to start from (the tests' migrated template) skips initdb, seconds per database.
  const loadDataDir = workerData.loadDataDir
    ? new Blob([fs.readFileSync(workerData.loadDataDir)])
    : undefined;
  const db = new PGlite({
    dataDir: workerData.dataDir,
    extensions: { pg_trgm },
    loadDataDir,
    ...(workerData.wasmModule ? { wasmModule: workerData.wasmModule } : {}),
  });
  await db.waitReady;
  /** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, end: (commit: boolean) => void, done: Promise<void> }>} */
  const transactions = new Map();
  /** @type {Map<string, () => Promise<void>>} */
  const listening = new Map();
  let nextTransaction = 1;

  const queryOptions = (/** @type {{ rowMode?: 'array' | 'object', textTypes?: number[] }} */ message) => ({
    rowMode: message.rowMode,
    parsers: Object.fromEntries((message.textTypes ?? []).map((type) => [type, keepAsText])),
  });
  const target = (/** @type {number | undefined} */ tx) => {
    if (tx === undefined) return db;
    const open = transactions.get(tx);
    if (!open) throw new Error('The transaction has ended');
    return open.tx;
  };

  const begin = () =>
    new Promise((resolve, reject) => {
      const id = nextTransaction++;
      /** @type {(commit: boolean) => void} */
      let end = () => {};
      const ended = new Promise((resolveEnd) => {
        end = resolveEnd;
      });
      const done = db
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, done });
          resolve(id);
          const commit = await ended;
          transactions.delete(id);
          if (!commit) throw new RollBack();
        })
        .catch((error) => {
          transactions.delete(id);
          if (!(error instanceof RollBack)) throw error;
        });
      // BEGIN itself failed: the transaction never opened.
      done.catch(reject);
    });

  const finish = async (/** @type {number} */ id, /** @type {boolean} */ commit) => {
    const open = transactions.get(id);
    if (!open) throw new Error('The transaction has ended');
    open.end(commit);
    await open.done;
  };

  /** @type {Record<string, (message: any) => Promise<unknown>>} (the messages are pglite-worker-client.ts's) */
  const operations = {
    query: async (m) => target(m.tx).query(m.sql, m.params, queryOptions(m)),
    exec: async (m) => target(m.tx).exec(m.sql),
    begin: async () => begin(),
    end: async (m) => finish(m.tx, m.commit),
    listen: async (m) => {
      if (!listening.has(m.channel))
        listening.set(
          m.channel,
          // Posted before the answer of the statement that notified, as PGlite calls back first.
          await db.listen(m.channel, (payload) => port.postMessage({ notify: m.channel, payload })),
        );
    },
    unlisten: async (m) => {
      await listening.get(m.channel)?.();
      listening.delete(m.channel);
    },
    close: async () => {
      await db.close();
    },
  };

  port.on('message', async (message) => {
    try {
      const operation = operations[message.op];
      if (!operation) throw new Error(`Unknown operation ${message.op}`);
      port.postMessage({ id: message.id, ok: true, value: await operation(message) });
    } catch (error) {
      port.postMessage({ id: message.id, ok: false, error: asData(error) });
    }
  });
};

start().then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: asData(error) }),
);
