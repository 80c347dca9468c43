import { CHANNELS, type UnprocessedFile } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { mayManageEdgeServer } from '../access/service.ts';
import { mayManageAccount, requireQueue } from './queues.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** Unprocessed files (spec2 §3): files an endpoint saw but could not queue, until forced or rescanned. */

const toFile = (row: Awaited<ReturnType<typeof repo.findUnprocessedFiles>>[number]): UnprocessedFile => ({
  id: row.id,
  endpointId: row.endpointId,
  path: row.path,
  status: 'missingFiles',
  forced: row.forced,
  firstSeen: row.firstSeen.toISOString(),
});

export const listUnprocessedFiles = async ({
  ctx,
  actor,
  endpointId,
  page,
}: Call<{ endpointId: number; page: { offset: number; limit: number } }>) => {
  await requireQueue(ctx.db, actor, { kind: 'endpoint', id: endpointId });
  const [endpoint] = await repo.findEndpointEdges(ctx.db, [endpointId]);
  const { rows, total } = await repo.findUnprocessedPage(ctx.db, endpointId, page);
  return {
    rows: rows.map(toFile),
    total,
    channel: CHANNELS.unprocessedFiles((endpoint as { edgeServerId: number }).edgeServerId),
  };
};

/** The files and their endpoints' edge servers, once the actor may act on every one: 404, 403. */
const requireFiles = async (db: DbOrTx, actor: Actor, ids: number[]) => {
  const rows = await repo.findUnprocessedFiles(db, ids);
  const files = ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFound('Unprocessed file');
    return row;
  });
  const endpoints = new Map(
    (
      await repo.findEndpointEdges(
        db,
        files.map((file) => file.endpointId),
      )
    ).map((e) => [e.id, e]),
  );
  for (const file of files) {
    const endpoint = endpoints.get(file.endpointId);
    if (
      !endpoint ||
      (!(await mayManageEdgeServer(db, actor, endpoint)) &&
        !(await mayManageAccount(db, actor, endpoint.accountId)))
    )
      throw forbidden();
  }
  return { files, edgeIds: [...new Set([...endpoints.values()].map((e) => e.edgeServerId))] };
};

const publishFiles = async (ctx: AppContext, edgeIds: number[], ids: number[]) => {
  for (const edgeServerId of edgeIds) await ctx.publish(CHANNELS.unprocessedFiles(edgeServerId), ids);
};

/** Force (or stop forcing) files: the edge queues them despite what is missing; all or nothing. */
export const forceFiles = async ({ ctx, actor, list }: Call<{ list: { id: number; forced: boolean }[] }>) => {
  const ids = list.map((entry) => entry.id);
  const { edgeIds } = await requireFiles(ctx.db, actor, ids);
  await ctx.db.transaction(async (tx) => {
    for (const entry of list) await repo.setForced(tx, entry.id, entry.forced);
  });
  await publishFiles(ctx, edgeIds, ids);
  return (await repo.findUnprocessedFiles(ctx.db, ids)).map(toFile);
};

/** Removes the records, so the edge finds the files again on its next scan (rescan); all or nothing. */
export const rescanFiles = async ({ ctx, actor, ids }: Call<{ ids: number[] }>) => {
  const { edgeIds } = await requireFiles(ctx.db, actor, ids);
  await ctx.db.transaction((tx) => repo.deleteUnprocessedFiles(tx, ids));
  await publishFiles(ctx, edgeIds, ids);
  return { ok: true as const };
};
