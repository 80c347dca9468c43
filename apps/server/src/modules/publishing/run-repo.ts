import type { PublishOutput, PublishStatus } from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { publishButtons, publishes } from './tables.ts';

/** Writes one queued publish per node; answers their ids in the nodes' order. */
export const insertPublishes = async (
  db: DbOrTx,
  values: { buttonId: number; accountId: number; userId: number | null; options: Record<string, unknown> },
  nodeIds: number[],
) =>
  (
    await db
      .insert(publishes)
      .values(nodeIds.map((nodeId) => ({ ...values, nodeId })))
      .returning({ id: publishes.id })
  ).map((row) => row.id);

/** A publish with what its run needs: the button's network and location, the node and its media. */
export const findPublishWork = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      publish: publishes,
      button: {
        name: publishButtons.name,
        phases: publishButtons.phases,
        location: publishButtons.location,
      },
      node: { id: nodes.id, path: nodes.path, name: nodes.name },
      media: {
        id: media.id,
        type: media.type,
        status: media.status,
        storagePath: media.storagePath,
        sourcePath: media.sourcePath,
        contentType: media.contentType,
        duration: media.duration,
      },
      accountName: accounts.name,
    })
    .from(publishes)
    .innerJoin(publishButtons, eq(publishButtons.id, publishes.buttonId))
    .innerJoin(accounts, eq(accounts.id, publishes.accountId))
    .leftJoin(nodes, eq(nodes.id, publishes.nodeId))
    .leftJoin(media, eq(media.id, nodes.mediaId))
    .where(eq(publishes.id, id));
  return row;
};

export type PublishChange = {
  status?: PublishStatus;
  progress?: number | null;
  error?: string | null;
  outputs?: PublishOutput[];
  started?: true;
  finished?: true;
  /** Handed over to this edge server's agent. */
  edgeServerId?: number;
  /** Lines added to the log. */
  log?: string[];
};

export const updatePublish = (db: DbOrTx, id: number, change: PublishChange) =>
  db
    .update(publishes)
    .set({
      ...(change.status ? { status: change.status } : {}),
      ...(change.progress !== undefined ? { progress: change.progress } : {}),
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.outputs ? { outputs: change.outputs } : {}),
      ...(change.started ? { startedAt: sql`coalesce(${publishes.startedAt}, now())` } : {}),
      ...(change.finished ? { finishedAt: sql`now()` } : {}),
      ...(change.edgeServerId !== undefined ? { edgeServerId: change.edgeServerId } : {}),
      ...(change.log?.length ? { log: sql`${publishes.log} || ${JSON.stringify(change.log)}::jsonb` } : {}),
    })
    .where(eq(publishes.id, id));
