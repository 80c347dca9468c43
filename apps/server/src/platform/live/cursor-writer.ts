import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** An event id idle this long has expired (5 minutes); what its polls looked at is forgotten after it. */
const LOOKED_KEEP_MS = 10 * 60_000;

/**
 * Writes the cursors of many long-polls answered at once in one statement, so a change delivered to
 * thousands of pollers costs one write, not thousands. Each answer waits for its cursor to be stored.
 * Touches (an event id in use, so it does not expire) go into the same statement; nobody waits for them.
 * A poll that ends without changes writes nothing: how far it looked is kept in memory for the next poll
 * on this instance (another instance starts from the stored cursor and finds nothing new for it there).
 */
export class CursorWriter {
  private pending = new Map<string, number>();
  private touches = new Set<string>();
  private flushing: Promise<void> | undefined;
  private scheduled: Promise<void> | undefined;
  private readonly looked = new Map<string, { cursor: number; at: number }>();
  private lookedSweptAt = Date.now();

  constructor(private readonly db: Db) {}

  /** Where the next poll of the event id starts: the stored cursor, or further when this instance looked further. */
  startOf(eventId: string, stored: number) {
    return Math.max(stored, this.looked.get(eventId)?.cursor ?? 0);
  }

  /** Remembers, without writing, that a poll found nothing for the event id up to this cursor. */
  remember(eventId: string, cursor: number) {
    const now = Date.now();
    this.looked.set(eventId, { cursor, at: now });
    if (now - this.lookedSweptAt < LOOKED_KEEP_MS) return;
    this.lookedSweptAt = now;
    for (const [id, entry] of this.looked) if (now - entry.at > LOOKED_KEEP_MS) this.looked.delete(id);
  }

  advance(eventId: string, cursor: number): Promise<void> {
    this.pending.set(eventId, Math.max(cursor, this.pending.get(eventId) ?? 0));
    return this.schedule();
  }

  /** Marks the event id as seen now, with the next write; a failed write is retried by the next touch. */
  touch(eventId: string) {
    this.touches.add(eventId);
    if (!this.pending.has(eventId)) this.pending.set(eventId, 0);
    this.schedule().catch(() => {});
  }

  private schedule() {
    this.scheduled ??= new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        this.scheduled = undefined;
        this.flush().then(resolve, reject);
      }, 5);
    });
    return this.scheduled;
  }

  private async flush() {
    // A failed write (a lost connection) fails the answers that waited for it, not every later one.
    await this.flushing?.catch(() => {});
    const batch = this.pending;
    const touches = this.touches;
    this.pending = new Map();
    this.touches = new Set();
    if (batch.size === 0) return;
    // Three array parameters, not three per event id: a batch of 20,000 is parsed and planned as one of three.
    const ids = [...batch.keys()];
    const cursors = ids.map((id) => String(batch.get(id) ?? 0));
    const touched = ids.map((id) => touches.has(id));
    this.flushing = this.db
      .execute(
        sql`update live_events as e set cursor = greatest(e.cursor, v.cursor), last_seen_at = now()
            from unnest(${sql.param(ids)}::text[], ${sql.param(cursors)}::bigint[], ${sql.param(touched)}::boolean[]) as v(id, cursor, touch)
            where e.id = v.id and (e.cursor < v.cursor or v.touch)`,
      )
      .then(() => {});
    await this.flushing;
  }
}
