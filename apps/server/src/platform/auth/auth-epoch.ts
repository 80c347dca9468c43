import { eq } from 'drizzle-orm';
import { authEpoch } from '../../modules/auth/tables.ts';
import type { DatabaseHandle, Db } from '../db/client.ts';

const settled = () => undefined;
const failed = (error: unknown) => ({ error });

/** The NOTIFY channel of migration 0024's triggers. */
export const AUTH_CHANGES_CHANNEL = 'auth_changes';

const prepareEpochRead = (db: Db) =>
  db.select({ value: authEpoch.value }).from(authEpoch).where(eq(authEpoch.id, 1)).prepare('auth_epoch_read');

/**
 * When this instance's cached sessions and rights are still good. The database bumps `auth_epoch` in every
 * transaction that changes what they are read from (migration 0024's statement triggers, whatever code made
 * the change), so a cached answer is used only in the generation it was read in:
 * - embedded (PGlite, one process owns the data): the triggers' NOTIFY reaches this process before the
 *   changing statement answers, so the generation moves with no read per request;
 * - PostgreSQL (any number of instances): each request waits for a read of the epoch that started after it
 *   came (one primary-key read, shared by the requests that came meanwhile, in place of the session and
 *   rights queries), so a change made on any instance counts on every instance at once.
 */
export class AuthEpoch {
  private generation = 0;
  private seen: number | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** The epoch read under way (PostgreSQL), and the one queued behind it. */
  private reading: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  /** Made at the first read: it runs on most requests on PostgreSQL (a named statement, planned once per connection). */
  private epochRead: ReturnType<typeof prepareEpochRead> | undefined;

  private constructor(
    private readonly db: Db,
    private readonly pushed: boolean,
  ) {}

  static async open(database: Pick<DatabaseHandle, 'db' | 'listen'>) {
    const epoch = new AuthEpoch(database.db, database.listen !== undefined);
    if (database.listen)
      epoch.unlisten = await database.listen(AUTH_CHANGES_CHANNEL, () => {
        epoch.generation += 1;
      });
    return epoch;
  }

  /** The generation now when it is known without a read (embedded: pushed to this process), else undefined. */
  known(): number | undefined {
    return this.pushed ? this.generation : undefined;
  }

  /** The generation now, for a request to read its cached answers in (PostgreSQL: after reading the epoch). */
  current(): Promise<number> {
    if (this.pushed) return Promise.resolve(this.generation);
    if (!this.reading) return this.read();
    // A read under way may have started before a change this request must see: the request shares the
    // read that starts after it, with every other request that came meanwhile (one read, not one each).
    // If the read under way fails (the database is lost), they fail with it rather than wait for another
    // read: a request waits for one read at most, and the next request reads again.
    this.queued ??= this.reading.then(settled, failed).then((failure) => {
      this.queued = undefined;
      if (failure) throw failure.error;
      return this.reading ?? this.read();
    });
    return this.queued;
  }

  private read(): Promise<number> {
    const reading = (async () => {
      this.epochRead ??= prepareEpochRead(this.db);
      const [row] = await this.epochRead.execute();
      const value = row?.value ?? -1;
      if (value !== this.seen) {
        this.seen = value;
        this.generation += 1;
      }
      return this.generation;
    })();
    this.reading = reading;
    void reading.then(settled, settled).then(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    return reading;
  }

  /** Whether answers read in `generation` may still be kept (nothing changed since, as far as this instance knows). */
  holds(generation: number) {
    return generation === this.generation;
  }

  async close() {
    await this.unlisten?.().catch(() => undefined);
  }
}

/** At most this many answers are kept per cache unless it says otherwise; the oldest go first. */
const CACHE_LIMIT = 10_000;

/** Answers cached for the generation they were read in (see AuthEpoch). */
export class GenerationCache<K, V> {
  private readonly entries = new Map<K, { generation: number; value: V }>();

  constructor(
    private readonly epoch: AuthEpoch,
    private readonly limit = CACHE_LIMIT,
  ) {}

  get(key: K, generation: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation === generation) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps an answer read in `generation`, unless something changed while it was read. */
  set(key: K, generation: number, value: V) {
    if (!this.epoch.holds(generation)) return;
    this.entries.delete(key);
    this.entries.set(key, { generation, value });
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K) {
    this.entries.delete(key);
  }

  /** The answer cached for `key` in `generation`, or `load`'s (kept unless it fails: the next request reads again). */
  through(key: K, generation: number, load: () => V & Promise<unknown>): V {
    const cached = this.get(key, generation);
    if (cached) return cached;
    const loading = load();
    this.set(key, generation, loading);
    loading.catch(() => this.delete(key));
    return loading;
  }
}
