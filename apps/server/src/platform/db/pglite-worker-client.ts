import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

type ErrorData = { message: string; name?: string; fields: Record<string, unknown> };
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorData };
type FromWorker =
  | Answer
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: ErrorData };

/** The worker's error again, with the fields callers read (SQLSTATE `code`, `constraint`, `detail`...). */
const errorFrom = (data: ErrorData) => {
  const error = new Error(data.message);
  Object.assign(error, data.fields);
  if (data.name) error.name = data.name;
  return error;
};

/**
 * The parsers a query may give: only ones that keep a type's text as it is (Drizzle's, for dates, times
 * and intervals), which the worker applies itself: a function cannot cross to another thread.
 */
const textTypesOf = (options: QueryOptions | undefined) => {
  const parsers = options?.parsers ?? {};
  return Object.entries(parsers).map(([type, parse]) => {
    if (parse('2000-01-01', Number(type)) !== '2000-01-01')
      throw new Error(`The embedded database worker keeps a type as text or parses it itself (type ${type})`);
    return Number(type);
  });
};

type Queryable = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
};

/**
 * PGlite in a worker thread (pglite-worker.mjs), with the part of PGlite's interface that Drizzle, the
 * migrations, the job queue (pg-boss) and AuthEpoch use: query, exec, transaction, listen, close. The
 * worker runs one statement at a time, and a transaction holds it as PGlite's own does: statements of other
 * requests wait until it ends.
 */
/** A compiled WebAssembly.Module (typed opaquely: not every TypeScript project here has the WebAssembly types). */
type CompiledWasm = object;
let compiled: Promise<CompiledWasm> | undefined;

/**
 * PGlite's WebAssembly compiled once per process: a test process opens a database per test file, and each
 * worker compiling it anew cost ~0.5 s of CPU (V8 shares a compiled module's code between threads).
 */
export const compiledPglite = () => {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const bytes = await fs.promises.readFile(path.join(path.dirname(entry), 'pglite.wasm'));
    const wasm = (
      globalThis as unknown as { WebAssembly: { compile: (code: Uint8Array) => Promise<CompiledWasm> } }
    ).WebAssembly;
    return wasm.compile(bytes);
  })();
  return compiled;
};

export class PGliteWorkerClient implements Queryable {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private stopped: Error | undefined;
  readonly waitReady: Promise<void>;

  /**
   * `loadDataDir`: a PGlite dump (dumpDataDir's tar) to open instead of a new database (tests' template);
   * `wasmModule`: PGlite compiled already (compiledPglite), shared by the databases of one process.
   */
  constructor(options: { dataDir?: string; loadDataDir?: string; wasmModule?: CompiledWasm }) {
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: {
        dataDir: options.dataDir,
        loadDataDir: options.loadDataDir,
        wasmModule: options.wasmModule,
      },
    });
    let ready: { resolve: () => void; reject: (e: Error) => void } | undefined;
    this.waitReady = new Promise((resolve, reject) => {
      ready = { resolve, reject };
    });
    this.worker.on('message', (message: FromWorker) => {
      if ('ready' in message) {
        if (message.ready) ready?.resolve();
        else ready?.reject(errorFrom(message.error));
      } else if ('notify' in message) {
        for (const listener of this.listeners.get(message.notify) ?? []) listener(message.payload);
      } else {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) waiting?.resolve(message.value);
        else waiting?.reject(errorFrom(message.error));
      }
    });
    const stop = (error: Error) => {
      this.stopped ??= error;
      ready?.reject(error);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', (error) => stop(error));
    this.worker.on('exit', (code) => stop(new Error(`The embedded database stopped (worker exit ${code})`)));
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private queryIn<T>(tx: number | undefined, sql: string, params: unknown[] = [], options?: QueryOptions) {
    return this.call<Results<T>>({
      op: 'query',
      tx,
      sql,
      params,
      rowMode: options?.rowMode,
      textTypes: textTypesOf(options),
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.queryIn<T>(undefined, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.call({ op: 'exec', sql });
  }

  async transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = await this.call<number>({ op: 'begin' });
    let result: T;
    try {
      result = await callback({
        query: (sql, params, options) => this.queryIn(tx, sql, params, options),
        exec: (sql) => this.call({ op: 'exec', sql, tx }),
      });
    } catch (error) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  /** Calls back on every NOTIFY of `channel` before the answer of the statement that sent it; resolves to the unsubscribe. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listeners = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, listeners);
    listeners.add(callback);
    await this.call({ op: 'listen', channel });
    return async () => {
      listeners.delete(callback);
      if (listeners.size === 0) {
        this.listeners.delete(channel);
        await this.call({ op: 'unlisten', channel });
      }
    };
  }

  async close() {
    try {
      await this.call({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }
}
