import { liveChanges } from '../../modules/events/tables.ts';
import type { Db } from '../db/client.ts';
import type { LiveBus } from './bus.ts';

export type Publish = (channel: string, modified: (string | number)[]) => Promise<void>;

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
    if (row) await bus.notify({ id: row.id, channel });
  };
