import { and, asc, eq, gt, inArray, lt, max, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { liveChanges, liveEvents, liveSubscriptions } from './tables.ts';

export const latestChangeId = async (db: DbOrTx) => {
  const [row] = await db.select({ id: max(liveChanges.id) }).from(liveChanges);
  return Number(row?.id ?? 0);
};

export const insertEvent = (db: DbOrTx, event: { id: string; userId: number; cursor: number }) =>
  db.insert(liveEvents).values(event);

export const findEvent = async (db: DbOrTx, id: string) => {
  const [row] = await db.select().from(liveEvents).where(eq(liveEvents.id, id));
  return row;
};

/** The event id and the channels it is subscribed to, in one query. */
export const findEventWithChannels = async (db: DbOrTx, id: string) => {
  const [row] = await db
    .select({
      id: liveEvents.id,
      userId: liveEvents.userId,
      cursor: liveEvents.cursor,
      lastSeenAt: liveEvents.lastSeenAt,
      channels: sql<
        string[]
      >`coalesce(array_agg(${liveSubscriptions.channel}) filter (where ${liveSubscriptions.channel} is not null), '{}')`,
    })
    .from(liveEvents)
    .leftJoin(liveSubscriptions, eq(liveSubscriptions.eventId, liveEvents.id))
    .where(eq(liveEvents.id, id))
    .groupBy(liveEvents.id);
  return row;
};

export const touchEvent = (db: DbOrTx, id: string) =>
  db.update(liveEvents).set({ lastSeenAt: sql`now()` }).where(eq(liveEvents.id, id));

export const advanceCursor = (db: DbOrTx, id: string, cursor: number) =>
  db
    .update(liveEvents)
    .set({ cursor, lastSeenAt: sql`now()` })
    .where(and(eq(liveEvents.id, id), lt(liveEvents.cursor, cursor)));

export const deleteEvent = async (db: DbOrTx, id: string) => {
  const removed = await db.delete(liveEvents).where(eq(liveEvents.id, id)).returning({ id: liveEvents.id });
  return removed.length > 0;
};

export const insertSubscriptions = (db: DbOrTx, eventId: string, channels: string[]) =>
  db
    .insert(liveSubscriptions)
    .values(channels.map((channel) => ({ eventId, channel })))
    .onConflictDoNothing();

export const findSubscriptions = async (db: DbOrTx, eventId: string) =>
  (
    await db
      .select({ channel: liveSubscriptions.channel })
      .from(liveSubscriptions)
      .where(eq(liveSubscriptions.eventId, eventId))
  ).map((r) => r.channel);

export const findChangesAfter = (db: DbOrTx, cursor: number, channels: string[], limit: number) =>
  db
    .select()
    .from(liveChanges)
    .where(and(gt(liveChanges.id, cursor), inArray(liveChanges.channel, channels)))
    .orderBy(asc(liveChanges.id))
    .limit(limit);

/** Forgets idle event ids and changes nobody can still be waiting for. */
export const pruneIdle = async (db: DbOrTx, eventsBefore: Date, changesBefore: Date) => {
  await db.delete(liveEvents).where(lt(liveEvents.lastSeenAt, eventsBefore));
  await db.delete(liveChanges).where(lt(liveChanges.createdAt, changesBefore));
};
