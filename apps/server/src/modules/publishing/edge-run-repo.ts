import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { edgeServers } from '../edge/tables.ts';
import { publishes } from './tables.ts';

/** The name of an edge server, or undefined when there is none with this id. */
export const findEdgeServerName = async (db: DbOrTx, id: number) => {
  const [row] = await db.select({ name: edgeServers.name }).from(edgeServers).where(eq(edgeServers.id, id));
  return row?.name;
};

/**
 * The publishes handed over to an edge server that its agent has to carry out: those it claimed and did not
 * end first (its agent stopped in the middle), then the queued ones in the order they were asked for.
 */
export const findEdgePublishIds = async (db: DbOrTx, edgeServerId: number, limit: number) =>
  (
    await db
      .select({ id: publishes.id })
      .from(publishes)
      .where(
        and(
          eq(publishes.edgeServerId, edgeServerId),
          inArray(publishes.status, ['queued', 'running']),
          isNull(publishes.deletedAt),
        ),
      )
      .orderBy(desc(sql`${publishes.status} = 'running'`), asc(publishes.id))
      .limit(limit)
  ).map((row) => row.id);

/**
 * The edge server's agent starts a publish that is `from` (queued, or running when started again): it runs
 * from 0 %, with a log line. Answers whether it was still so (another claim may have come first).
 */
export const claimPublish = async (
  db: DbOrTx,
  claim: { id: number; edgeServerId: number; from: 'queued' | 'running'; log: string },
) => {
  const rows = await db
    .update(publishes)
    .set({
      status: 'running',
      progress: 0,
      startedAt: sql`coalesce(${publishes.startedAt}, now())`,
      log: sql`${publishes.log} || ${JSON.stringify([claim.log])}::jsonb`,
    })
    .where(
      and(
        eq(publishes.id, claim.id),
        eq(publishes.edgeServerId, claim.edgeServerId),
        eq(publishes.status, claim.from),
      ),
    )
    .returning({ id: publishes.id });
  return rows.length > 0;
};
