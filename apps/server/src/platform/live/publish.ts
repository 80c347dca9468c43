import { liveChanges } from '../../modules/events/tables.ts';
import type { Db } from '../db/client.ts';
import type { LiveBus } from './bus.ts';

/** Answers the change's id (ids ascend in the order changes are stored). */
export type Publish = (channel: string, modified: (string | number)[]) => Promise<number>;

/**
 * The one way a service announces a change, after its write has committed: the change is stored (so a
 * long-poll on any instance finds it) and the bus wakes the long-pollers of every instance.
 */
export const createPublisher =
  (db: Db, bus: LiveBus): Publish =>
  async (channel, modified) => {
    const [row] = await db
      .insert(liveChanges)
      .values({ channel, modified })
      .returning({ id: liveChanges.id });
    if (!row) throw new Error(`the change on ${channel} was not stored`);
    await bus.notify({ id: row.id, channel });
    return Number(row.id);
  };
