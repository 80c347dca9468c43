import { CHANNELS, type Publish } from '@media/contract';
import { and, count, desc, eq, isNull, or } from 'drizzle-orm';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { checkVisible, notHidden, seesShownAt, treeAccess } from '../nodes/access.ts';
import { nodes } from '../nodes/tables.ts';
import { roleAllowed } from './buttons.ts';
import * as buttonsRepo from './repo.ts';
import { queuePublishes } from './runs.ts';
import { type Call, ownerScope, readScope } from './scope.ts';
import { publishes } from './tables.ts';

type PublishRow = typeof publishes.$inferSelect;

export const presentPublish = (row: PublishRow): Publish => ({
  id: row.id,
  buttonId: row.buttonId,
  accountId: row.accountId,
  nodeId: row.nodeId,
  status: row.status,
  progress: row.progress,
  log: row.log,
  outputs: row.outputs,
  error: row.error,
  options: row.options,
  createdTime: row.createdAt.toISOString(),
  startedTime: row.startedAt?.toISOString() ?? null,
  finishedTime: row.finishedAt?.toISOString() ?? null,
});

const hidden = (thing: string) => (error: unknown) => {
  throw error instanceof AppError && error.status === 404 ? notFound(thing) : error;
};

/** GET /api/publishButtons/{id}/publishes: its published items, newest first (who may read the button). */
export const listButtonPublishes = async ({
  ctx,
  actor,
  id,
  offset,
  limit,
}: Call<{ id: number; offset: number; limit: number }>) => {
  const button = await buttonsRepo.findButton(ctx.db, id);
  if (!button) throw notFound('Publishing button');
  const owner = ownerScope(button);
  await readScope(ctx.db, actor, owner.kind, owner.id).catch(hidden('Publishing button'));
  // An account's items of nodes that folders hide from the caller's role are left out, as the nodes are.
  const hiddenOut =
    button.accountId !== null
      ? notHidden(
          await treeAccess(ctx.db, actor, { id: button.accountId }).catch(hidden('Publishing button')),
        )
      : undefined;
  const where = and(
    eq(publishes.buttonId, id),
    isNull(publishes.deletedAt),
    hiddenOut && or(isNull(nodes.id), hiddenOut),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ publish: publishes })
      .from(publishes)
      .leftJoin(nodes, eq(nodes.id, publishes.nodeId))
      .where(where)
      .orderBy(desc(publishes.id))
      .limit(limit)
      .offset(offset),
    ctx.db
      .select({ n: count() })
      .from(publishes)
      .leftJoin(nodes, eq(nodes.id, publishes.nodeId))
      .where(where),
  ]);
  // An account's button's items change on the account's channel; a site's button's on the site's buttons.
  const channel =
    button.accountId !== null
      ? CHANNELS.publishes(button.accountId)
      : CHANNELS.publishButtons('sites', button.siteId as number);
  return { rows: rows.map((row) => presentPublish(row.publish)), total: total?.n ?? 0, channel };
};

export const requirePublish = async (ctx: Call['ctx'], actor: Call['actor'], id: number) => {
  const [row] = await ctx.db.select().from(publishes).where(eq(publishes.id, id));
  if (!row) throw notFound('Published item');
  await readScope(ctx.db, actor, 'accounts', row.accountId).catch(hidden('Published item'));
  // One of a node that folders hide from the caller's role is not found, as the node is (issue 30).
  if (row.nodeId !== null) {
    const [access, [node]] = await Promise.all([
      treeAccess(ctx.db, actor, { id: row.accountId }).catch(hidden('Published item')),
      ctx.db.select({ path: nodes.path }).from(nodes).where(eq(nodes.id, row.nodeId)),
    ]);
    if (node && !seesShownAt(access, [node.path])) throw notFound('Published item');
  }
  return row;
};

/** GET /api/publishes/{id}: one published item, for the users of its account. */
export const getPublish = async ({ ctx, actor, id }: Call<{ id: number }>) =>
  presentPublish(await requirePublish(ctx, actor, id));

/**
 * POST /api/publishes/{id}/republish: runs the button again on the same node with the options stored, as a
 * new published item (the first keeps its log and outputs). Whoever may publish with the button there.
 */
export const republish = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const row = await requirePublish(ctx, actor, id);
  const button = await buttonsRepo.findButton(ctx.db, row.buttonId);
  if (!button?.enabled) throw notFound('Publishing button');
  const access = await treeAccess(ctx.db, actor, { id: row.accountId });
  if (!access.permissions.has('canPublish') || !roleAllowed(button.restrictions, access.roleId))
    throw forbidden();
  const [node] = row.nodeId === null ? [] : await ctx.db.select().from(nodes).where(eq(nodes.id, row.nodeId));
  checkVisible(access, node);
  // The item as queued: read in the transaction, since a run may take it up as soon as it commits.
  const created = await ctx.db.transaction(async (tx) => {
    const [newId] = await queuePublishes(
      ctx,
      tx,
      { buttonId: button.id, accountId: row.accountId, userId: actor.userId, options: row.options },
      [node?.id as number],
    );
    const [queued] = await tx
      .select()
      .from(publishes)
      .where(eq(publishes.id, newId as number));
    return queued as PublishRow;
  });
  await ctx.publish(CHANNELS.publishes(row.accountId), [created.id]);
  return presentPublish(created);
};
