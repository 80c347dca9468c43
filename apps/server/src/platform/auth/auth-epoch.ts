import { eq } from 'drizzle-orm';
import { authEpoch } from '../../modules/auth/tables.ts';
import type { DatabaseHandle, Db } from '../db/client.ts';

/** The NOTIFY channel of migration 0024's triggers. */
export const AUTH_CHANGES_CHANNEL = 'auth_changes';

/**
 * When this instance's cached sessions and rights are still good. The database bumps `auth_epoch` in every
 * transaction that changes what they are read from (migration 0024's statement triggers, whatever code made
 * the change), so a cached answer is used only in the generation it was read in:
 * - embedded (PGlite, one process owns the data): the triggers' NOTIFY reaches this process before the
 *   changing statement answers, so the generation moves with no read per request;
 * - PostgreSQL (any number of instances): each request reads the epoch (one primary-key read in place of
 *   the session and rights queries), so a change made on any instance counts on every instance at once.
 */
export class AuthEpoch {
  private generation = 0;
  private seen: number | undefined;
  private unlisten: (() => Promise<void>) | undefined;

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

  /** The generation now, for a request to read its cached answers in (PostgreSQL: after reading the epoch). */
  async current(): Promise<number> {
    if (this.pushed) return this.generation;
    const [row] = await this.db.select({ value: authEpoch.value }).from(authEpoch).where(eq(authEpoch.id, 1));
    const value = row?.value ?? -1;
    if (value !== this.seen) {
      this.seen = value;
      this.generation += 1;
    }
    return this.generation;
  }

  /** Whether answers read in `generation` may still be kept (nothing changed since, as far as this instance knows). */
  holds(generation: number) {
    return generation === this.generation;
  }

  async close() {
    await this.unlisten?.().catch(() => undefined);
  }
}

/** At most this many answers are kept per cache; the oldest go first. */
const CACHE_LIMIT = 10_000;

/** Answers cached for the generation they were read in (see AuthEpoch). */
export class GenerationCache<K, V> {
  private readonly entries = new Map<K, { generation: number; value: V }>();

  constructor(private readonly epoch: AuthEpoch) {}

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
    if (this.entries.size > CACHE_LIMIT) {
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
