import {
  accountPath,
  CHANNELS,
  freeName,
  isWithin,
  joinPath,
  NODE_MESSAGES,
  type NodeRights,
  parentPathOf,
  pathSegments,
  type TransferOperation,
  type TransferResult,
  transferOperations,
  transferVerb,
} from '@media/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Tx } from '../../platform/db/client.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { badRequest, conflict, forbidden } from '../../platform/errors.ts';
import { publishTarget, publishTransfer } from '../publishing/publish-transfer.ts';
import { emitNodeEvent } from '../webhooks/payloads.ts';
import { belowPattern, requireNodeAt, rightsAt } from './access.ts';
import * as repo from './repo.ts';
import { nodes } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;
type Located = Awaited<ReturnType<typeof requireNodeAt>>;

const NO_RIGHTS: NodeRights = { canView: false, canEdit: false, canLog: false, canManage: false };
const asList = (paths: string | string[]) => (Array.isArray(paths) ? paths : [paths]);

/** API path of a located node, spelled with the account's own name. */
const apiPathOf = ({ access, node }: Located) => accountPath(access.account.name, node.path);

/** Destination and sources, each one visible to the caller (404 otherwise), and what may be done. */
const locate = async (ctx: AppContext, actor: Actor, srcPaths: string[], dstPath: string) => {
  const dst = await requireNodeAt(ctx.db, actor, dstPath);
  const sources: Located[] = [];
  for (const path of srcPaths) sources.push(await requireNodeAt(ctx.db, actor, path));
  const operations = transferOperations({
    srcPaths: sources.map(apiPathOf),
    dstPath: apiPathOf(dst),
    dstType: dst.node.type,
    srcRights: sources.map((source) => {
      const parent = parentPathOf(source.node.path);
      return { atParent: parent ? rightsAt(source.access, parent) : NO_RIGHTS, atNode: source.rights };
    }),
    dstRights: dst.rights,
  });
  return { dst, sources, operations };
};

/** POST /api/nodesTransferType: which transfers the caller may make from the sources to the destination. */
export const transferTypes = async ({
  ctx,
  actor,
  srcPath,
  dstPath,
}: Call<{ srcPath: string | string[]; dstPath: string }>): Promise<{ operations: TransferOperation[] }> => {
  // A publishing button's place in the tree (/{account}/Publish/{button}) takes publishes only.
  const target = await publishTarget(ctx, actor, dstPath);
  if (!target) return { operations: (await locate(ctx, actor, asList(srcPath), dstPath)).operations };
  for (const path of asList(srcPath)) await requireNodeAt(ctx.db, actor, path);
  return { operations: target.allowed ? ['publish'] : [] };
};

/** Moves a subtree below dst: every path below it is rewritten in one statement. */
const moveSubtree = async (tx: Tx, source: Located, dstId: number, newPath: string) => {
  const { node } = source;
  await tx
    .update(nodes)
    .set({ path: sql`${newPath} || substr(${nodes.path}, ${node.path.length + 1})` })
    .where(and(eq(nodes.accountId, node.accountId), sql`${nodes.path} like ${belowPattern(node.path)}`));
  await tx
    .update(nodes)
    .set({ path: newPath, parentId: dstId, hereAt: sql`now()` })
    .where(eq(nodes.id, node.id));
};

/**
 * Copies a subtree below dst: the rows are copied with their new paths in one statement, then each copy
 * finds its parent by its parent's path. Media and thumbnails are shared, not duplicated.
 */
const copySubtree = async (tx: Tx, source: Located, userId: number, newPath: string, newName: string) => {
  const { node } = source;
  const accountId = node.accountId;
  const within = sql`(path = ${node.path} or path like ${belowPattern(node.path)})`;
  await tx.execute(sql`
    insert into nodes (account_id, path, name, type, media_id, thumb_id, metadata, artefacts, permissions,
      created_by, expires_at)
    select account_id, ${newPath} || substr(path, ${node.path.length + 1}),
      case when path = ${node.path} then ${newName} else name end,
      type, media_id, thumb_id, metadata, artefacts, permissions, ${userId}::int, expires_at
    from nodes where account_id = ${accountId} and ${within}`);
  await tx.execute(sql`
    update nodes as copy set parent_id = parent.id
    from nodes as parent
    where copy.account_id = ${accountId}
      and (copy.path = ${newPath} or copy.path like ${belowPattern(newPath)})
      and parent.account_id = ${accountId}
      and parent.path = coalesce(nullif(regexp_replace(copy.path, '/[^/]+$', ''), ''), '/')`);
};

/**
 * POST /api/nodesTransfer: moves or copies nodes into a folder of the same account, all or nothing; or
 * publishes them with the button a /{account}/Publish/{button} destination names.
 */
export const transfer = async ({
  ctx,
  actor,
  srcPath,
  dstPath,
  operation,
  userPublishData,
}: Call<{
  srcPath: string | string[];
  dstPath: string;
  operation: TransferOperation;
  userPublishData?: Record<string, unknown>;
}>): Promise<TransferResult> => {
  if (operation === 'publish') {
    const published = await publishTransfer(ctx, actor, {
      srcPaths: asList(srcPath),
      dstPath,
      userPublishData,
    });
    if (!published)
      throw badRequest(NODE_MESSAGES.publishUnavailable, { operation: NODE_MESSAGES.publishUnavailable });
    return published;
  }
  const { dst, sources, operations } = await locate(ctx, actor, asList(srcPath), dstPath);
  const dstApiPath = apiPathOf(dst);
  if (dst.node.type !== 'folder')
    throw badRequest(NODE_MESSAGES.notAFolder(dstApiPath), { dstPath: NODE_MESSAGES.notAFolder(dstApiPath) });
  for (const source of sources) {
    if (source.access.account.id !== dst.access.account.id)
      throw badRequest(NODE_MESSAGES.otherAccount, { srcPath: NODE_MESSAGES.otherAccount });
    if (source.node.path === '/')
      throw badRequest(NODE_MESSAGES.rootFixed, { srcPath: NODE_MESSAGES.rootFixed });
    if (isWithin(dst.node.path, source.node.path))
      throw badRequest(NODE_MESSAGES.intoItself, { dstPath: NODE_MESSAGES.intoItself });
  }
  if (!operations.includes(operation)) throw forbidden();
  let clashName = '';
  const taken = () =>
    conflict(NODE_MESSAGES.nameTaken(clashName, dstApiPath), {
      dstPath: NODE_MESSAGES.nameTaken(clashName, dstApiPath),
    });
  const moved: TransferResult['nodes'] = [];
  await ctx.db
    .transaction(async (tx) => {
      for (const source of sources) {
        const names = await repo.childNames(tx, dst.node.id);
        const from = apiPathOf(source);
        if (operation === 'move' && source.node.parentId === dst.node.id) {
          moved.push({ from, to: from });
          continue;
        }
        const name = operation === 'copy' ? freeName(source.node.name, names) : source.node.name;
        clashName = name;
        if (names.has(name.toLowerCase())) throw taken();
        const newPath = joinPath([...pathSegments(dst.node.path), name]);
        if (operation === 'move') {
          await moveSubtree(tx, source, dst.node.id, newPath);
          await emitNodeEvent(ctx, tx, 'node.moved', source.node, { from });
        } else {
          await copySubtree(tx, source, actor.userId, newPath, name);
          const copy = await repo.findNodeByPath(tx, source.node.accountId, newPath);
          if (copy) await emitNodeEvent(ctx, tx, 'node.created', copy, { copiedFrom: from });
        }
        moved.push({ from, to: accountPath(dst.access.account.name, newPath) });
      }
    })
    .catch((error) => {
      throw translateUniqueViolation(error, taken);
    });
  await ctx.publish(CHANNELS.nodes(dst.access.account.id), [
    dst.node.id,
    ...sources.flatMap((source) => [source.node.id, source.node.parentId ?? source.node.id]),
  ]);
  const first = moved[0]?.from ?? '';
  const what = sources.length > 1 ? `${first} and ${sources.length - 1} more` : first;
  return {
    operation,
    nodes: moved,
    message: NODE_MESSAGES.transferred(what, transferVerb(operation), dstApiPath),
  };
};
