import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Writes the cursors of many long-polls answered at once in one statement, so a change delivered to
 * thousands of pollers costs one write, not thousands. Each answer waits for its cursor to be stored.
 */
export class CursorWriter {
  private pending = new Map<string, number>();
  private flushing: Promise<void> | undefined;
  private scheduled: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  advance(eventId: string, cursor: number): Promise<void> {
    this.pending.set(eventId, Math.max(cursor, this.pending.get(eventId) ?? 0));
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
    this.pending = new Map();
    if (batch.size === 0) return;
    const values = sql.join(
      [...batch].map(([id, cursor]) => sql`(${id}, ${cursor}::bigint)`),
      sql`, `,
    );
    this.flushing = this.db
      .execute(
        sql`update live_events as e set cursor = v.cursor, last_seen_at = now()
            from (values ${values}) as v(id, cursor)
            where e.id = v.id and e.cursor < v.cursor`,
      )
      .then(() => {});
    await this.flushing;
  }
}
