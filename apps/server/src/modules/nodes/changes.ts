import {
  accountPath,
  CHANNELS,
  type FolderPermission,
  joinPath,
  NODE_MESSAGES,
  type NodePost,
  parentPathOf,
  pathSegments,
} from '@media/contract';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { badRequest, conflict, forbidden } from '../../platform/errors.ts';
import { roles } from '../access/tables.ts';
import { emitNodeEvent } from '../webhooks/payloads.ts';
import { belowPattern, hiddenPaths, requireNodeAt, rightsAt, type TreeAccess, treeAccess } from './access.ts';
import { createNode } from './creation.ts';
import { presentNode } from './presenter.ts';
import * as repo from './repo.ts';
import { nodes } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;
type FieldChange = { key: string; value: string; accountId: number; path: string };
type PermissionsChange = { path: string; permissions: FolderPermission[] };
type Rename = { path: string; name: string };

const OTHER_ACCOUNT_ID = 'accountId is not the account of path';

/** The node as it is now (after a change), presented with fresh folder permissions. */
const presentAgain = async (ctx: AppContext, actor: Actor, access: TreeAccess, id: number) => {
  const fresh = await treeAccess(ctx.db, actor, { id: access.account.id });
  const [row] = await repo.findPresentable(ctx.db, eq(nodes.id, id), hiddenPaths(fresh));
  if (!row) throw new Error('node vanished');
  return presentNode(row, fresh);
};

/** POST /api/nodes: the variants are told apart by their keys (spec3 §7). */
export const postNode = ({ ctx, actor, body }: Call<{ body: NodePost }>) => {
  if ('parentPath' in body) return createNode({ ctx, actor, create: body });
  if ('key' in body) return setField({ ctx, actor, change: body });
  if ('permissions' in body) return savePermissions({ ctx, actor, change: body });
  return renameNode({ ctx, actor, rename: body });
};

/** Sets one metadata field; an empty value removes it (loggers and editors). */
export const setField = async ({ ctx, actor, change }: Call<{ change: FieldChange }>) => {
  const { access, node, rights } = await requireNodeAt(ctx.db, actor, change.path);
  if (change.accountId !== access.account.id)
    throw badRequest(OTHER_ACCOUNT_ID, { accountId: OTHER_ACCOUNT_ID });
  if (!rights.canLog) throw forbidden();
  const metadata =
    change.value === ''
      ? sql`${nodes.metadata} - ${change.key}::text`
      : sql`${nodes.metadata} || jsonb_build_object(${change.key}::text, ${change.value}::text)`;
  await ctx.db.transaction(async (tx) => {
    await tx.update(nodes).set({ metadata }).where(eq(nodes.id, node.id));
    await emitNodeEvent(ctx, tx, 'node.updated', node, { changed: ['metadata'] });
  });
  await ctx.publish(CHANNELS.nodes(access.account.id), [node.id]);
  return presentAgain(ctx, actor, access, node.id);
};

/** Replaces a folder's own permission entries (account managers); roles of the account's site or global. */
export const savePermissions = async ({ ctx, actor, change }: Call<{ change: PermissionsChange }>) => {
  const { access, node, rights } = await requireNodeAt(ctx.db, actor, change.path);
  if (!rights.canManage) throw forbidden();
  if (node.type !== 'folder')
    throw badRequest(NODE_MESSAGES.notAFolder(change.path), { path: NODE_MESSAGES.notAFolder(change.path) });
  for (const { roleId } of change.permissions) {
    const [role] = await ctx.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.id, roleId), or(isNull(roles.siteId), eq(roles.siteId, access.account.siteId))));
    if (!role) throw badRequest('Role not found', { permissions: 'Role not found' });
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(nodes).set({ permissions: change.permissions }).where(eq(nodes.id, node.id));
    await emitNodeEvent(ctx, tx, 'node.updated', node, { changed: ['permissions'] });
  });
  await ctx.publish(CHANNELS.nodes(access.account.id), [node.id]);
  return presentAgain(ctx, actor, access, node.id);
};

/** Renames a node (editors of its folder); the paths of its descendants follow in the same transaction. */
export const renameNode = async ({ ctx, actor, rename }: Call<{ rename: Rename }>) => {
  const { access, node } = await requireNodeAt(ctx.db, actor, rename.path);
  if (node.path === '/') throw badRequest(NODE_MESSAGES.rootFixed, { path: NODE_MESSAGES.rootFixed });
  const parentInner = parentPathOf(node.path) ?? '/';
  if (!rightsAt(access, parentInner).canEdit) throw forbidden();
  const parentApiPath = accountPath(access.account.name, parentInner);
  const taken = () =>
    conflict(NODE_MESSAGES.nameTaken(rename.name, parentApiPath), {
      name: NODE_MESSAGES.nameTaken(rename.name, parentApiPath),
    });
  const newPath = joinPath([...pathSegments(parentInner), rename.name]);
  await ctx.db
    .transaction(async (tx) => {
      const [clash] = await tx
        .select({ id: nodes.id })
        .from(nodes)
        .where(
          and(
            eq(nodes.parentId, node.parentId as number),
            ne(nodes.id, node.id),
            eq(sql`lower(${nodes.name})`, rename.name.toLowerCase()),
          ),
        );
      if (clash) throw taken();
      await tx
        .update(nodes)
        .set({ path: sql`${newPath} || substr(${nodes.path}, ${node.path.length + 1})` })
        .where(
          and(eq(nodes.accountId, access.account.id), sql`${nodes.path} like ${belowPattern(node.path)}`),
        );
      await tx.update(nodes).set({ name: rename.name, path: newPath }).where(eq(nodes.id, node.id));
      await emitNodeEvent(ctx, tx, 'node.updated', node, { changed: ['name'], previousName: node.name });
    })
    .catch((error) => {
      throw translateUniqueViolation(error, taken);
    });
  await ctx.publish(CHANNELS.nodes(access.account.id), [node.id]);
  return presentAgain(ctx, actor, access, node.id);
};
