/** Key shortcut sets per level (cloud, site, account, user), their parents and defaults (spec1). */
import {
  CHANNELS,
  type DefaultKeyShortcut,
  defaultKeyShortcutLevel,
  hasRight,
  type KeyShortcutContext,
  type KeyShortcutLevel,
  type KeyShortcutSet,
  MSG_KEY_SHORTCUT_DEFAULT_HIDDEN,
  MSG_KEY_SHORTCUT_LEVEL_REFUSED,
  MSG_KEY_SHORTCUT_PARENT_LOOP,
  type Right,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { EntityRef } from '../../platform/permissions.ts';
import { findAncestry, requireRight, requireUserManagement } from '../access/service.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

const LEVEL_RIGHT: Record<Exclude<KeyShortcutLevel, 'user'>, Right> = {
  account: 'account.manage',
  site: 'site.manage',
  cloud: 'cloud.admin',
};

type Owner = { userId: number | null; accountId: number | null; siteId: number | null };

/** Who owns a set at a level, from the page's context; 400 when the context lacks it. */
const ownerAt = (actor: Actor, level: KeyShortcutLevel, context: KeyShortcutContext): Owner => {
  const none = { userId: null, accountId: null, siteId: null };
  switch (level) {
    case 'user':
      return { ...none, userId: context.userId ?? actor.userId };
    case 'account':
      if (!context.accountId)
        throw badRequest('accountId is required for the account level', { accountId: 'Required' });
      return { ...none, accountId: context.accountId };
    case 'site':
      if (!context.siteId) throw badRequest('siteId is required for the site level', { siteId: 'Required' });
      return { ...none, siteId: context.siteId };
    case 'cloud':
      return none;
  }
};

const entityOf = (level: KeyShortcutLevel, owner: Owner): EntityRef =>
  level === 'account'
    ? { kind: 'account', id: owner.accountId as number }
    : level === 'site'
      ? { kind: 'site', id: owner.siteId as number }
      : { kind: 'cloud' };

/** May the actor change sets at this level and owner: 404 for a missing owner, 403 without the right. */
const requireLevelRight = async (ctx: AppContext, actor: Actor, level: KeyShortcutLevel, owner: Owner) => {
  if (level === 'user') {
    if (owner.userId !== actor.userId && !(await actor.rights()).admin)
      throw forbidden(MSG_KEY_SHORTCUT_LEVEL_REFUSED);
    return;
  }
  await requireRight(ctx.db, actor, LEVEL_RIGHT[level], entityOf(level, owner));
};

/** Fills the context's site from its account, and checks the actor may look from there. */
const readContext = async (ctx: AppContext, actor: Actor, context: KeyShortcutContext) => {
  const userId = context.userId ?? actor.userId;
  if (userId !== actor.userId) await requireUserManagement(ctx.db, actor, userId);
  let siteId = context.siteId;
  if (context.accountId) {
    const ancestry = await requireRight(ctx.db, actor, 'account.use', {
      kind: 'account',
      id: context.accountId,
    });
    siteId = ancestry.siteId ?? undefined;
  } else if (siteId) await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: siteId });
  return { userId, accountId: context.accountId, siteId };
};

const defaultScopes = (context: { accountId?: number; siteId?: number }): repo.DefaultScope[] => [
  ...(context.accountId ? [{ scope: 'account' as const, scopeId: context.accountId }] : []),
  ...(context.siteId ? [{ scope: 'site' as const, scopeId: context.siteId }] : []),
  { scope: 'cloud', scopeId: 0 },
];

export const listKeyShortcuts = async ({ ctx, actor, context }: Call<{ context: KeyShortcutContext }>) => {
  const seenFrom = await readContext(ctx, actor, context);
  const rows = await repo.findKeyShortcutSets(ctx.db, seenFrom);
  const defaults = await repo.findKeyShortcutDefaults(ctx.db, defaultScopes(seenFrom));
  const order = ['account', 'site', 'cloud'];
  const defaultId = defaults.sort((a, b) => order.indexOf(a.scope) - order.indexOf(b.scope))[0]
    ?.keyShortcutSetId;
  return rows.map(
    (row): KeyShortcutSet => ({
      id: row.id,
      name: row.name,
      parentId: row.parentId,
      visible: row.visible,
      level: row.level,
      isDefault: row.id === defaultId,
      children: rows.filter((child) => child.parentId === row.id).map((child) => child.id),
    }),
  );
};

type SetChange = {
  id: number;
  name: string;
  parentId: number | null;
  visible: boolean;
  level: KeyShortcutLevel;
} & KeyShortcutContext;

/** Applies changes together: rights at the old and the new level, no parent loops, defaults stay visible. */
export const updateKeyShortcuts = async ({ ctx, actor, changes }: Call<{ changes: SetChange[] }>) => {
  if (new Set(changes.map((c) => c.id)).size !== changes.length)
    throw badRequest('A key shortcut set is repeated');
  const current = await repo.findKeyShortcutSetsByIds(
    ctx.db,
    changes.map((c) => c.id),
  );
  const planned: { id: number; values: Parameters<typeof repo.updateKeyShortcutSet>[2] }[] = [];
  for (const change of changes) {
    const row = current.find((r) => r.id === change.id);
    if (!row) throw notFound('Key shortcut set');
    await requireLevelRight(ctx, actor, row.level, row);
    const owner = change.level === row.level ? row : ownerAt(actor, change.level, change);
    await requireLevelRight(ctx, actor, change.level, owner);
    if (!change.visible && (await repo.isDefaultAnywhere(ctx.db, change.id)))
      throw badRequest(MSG_KEY_SHORTCUT_DEFAULT_HIDDEN, { visible: MSG_KEY_SHORTCUT_DEFAULT_HIDDEN });
    planned.push({
      id: change.id,
      values: {
        name: change.name,
        parentId: change.parentId,
        visible: change.visible,
        level: change.level,
        userId: owner.userId,
        accountId: owner.accountId,
        siteId: owner.siteId,
      },
    });
  }
  await ctx.db.transaction(async (tx) => {
    for (const { id, values } of planned) {
      if (values.parentId !== null && !(await repo.findKeyShortcutSet(tx, values.parentId)))
        throw badRequest('Parent key shortcut set not found', { parentId: 'Not found' });
      await repo.updateKeyShortcutSet(tx, id, values);
    }
    await assertNoLoops(
      tx,
      planned.map((p) => p.id),
    );
  });
  await ctx.publish(
    CHANNELS.keyShortcuts,
    planned.map((p) => p.id),
  );
  return { ok: true as const };
};

/** After the updates, no changed set may sit below itself. */
const assertNoLoops = async (tx: DbOrTx, ids: number[]) => {
  for (const id of ids) {
    const seen = new Set<number>([id]);
    let cursor = (await repo.findKeyShortcutSet(tx, id))?.parentId ?? null;
    while (cursor !== null) {
      if (seen.has(cursor))
        throw badRequest(MSG_KEY_SHORTCUT_PARENT_LOOP, { parentId: MSG_KEY_SHORTCUT_PARENT_LOOP });
      seen.add(cursor);
      cursor = (await repo.findKeyShortcutSet(tx, cursor))?.parentId ?? null;
    }
  }
};

export const trashKeyShortcutSet = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const row = await repo.findKeyShortcutSet(ctx.db, id);
  if (!row) throw notFound('Key shortcut set');
  await requireLevelRight(ctx, actor, row.level, row);
  await repo.deleteKeyShortcutSet(ctx.db, id);
  await ctx.publish(CHANNELS.keyShortcuts, [id]);
  return { ok: true as const };
};

/** The default of the narrowest scope given (account, else site, else the cloud). */
export const setDefaultKeyShortcut = async ({ ctx, actor, data }: Call<{ data: DefaultKeyShortcut }>) => {
  const row = await repo.findKeyShortcutSet(ctx.db, data.keyshortcutId);
  if (!row) throw notFound('Key shortcut set');
  const level = defaultKeyShortcutLevel(data) as Exclude<KeyShortcutLevel, 'user'>;
  const scope: repo.DefaultScope =
    level === 'account'
      ? { scope: 'account', scopeId: data.accountId as number }
      : level === 'site'
        ? { scope: 'site', scopeId: data.siteId as number }
        : { scope: 'cloud', scopeId: 0 };
  const ancestry = await requireRight(
    ctx.db,
    actor,
    LEVEL_RIGHT[level],
    entityOf(level, ownerAt(actor, level, data)),
  );
  const reachable =
    row.level === 'cloud' ||
    (row.level === 'site' && row.siteId === ancestry.siteId) ||
    (row.level === 'account' && level === 'account' && row.accountId === data.accountId);
  if (!reachable) throw badRequest('This key shortcut set is not available here');
  if (!row.visible) throw badRequest(MSG_KEY_SHORTCUT_DEFAULT_HIDDEN);
  await repo.setKeyShortcutDefault(ctx.db, scope, row.id);
  await ctx.publish(CHANNELS.keyShortcuts, [row.id]);
  return { ok: true as const };
};

/** The levels the actor may change from this context, and the level a page starts at. */
export const keyShortcutAccessLevel = async ({
  ctx,
  actor,
  context,
}: Call<{ context: KeyShortcutContext }>) => {
  const seenFrom = await readContext(ctx, actor, context);
  const levels: KeyShortcutLevel[] = ['user'];
  const may = async (level: Exclude<KeyShortcutLevel, 'user'>, entity: EntityRef) => {
    const ancestry = await findAncestry(ctx.db, entity);
    return ancestry !== undefined && hasRight(await actor.rights(), LEVEL_RIGHT[level], ancestry);
  };
  if (seenFrom.accountId && (await may('account', { kind: 'account', id: seenFrom.accountId })))
    levels.push('account');
  if (seenFrom.siteId && (await may('site', { kind: 'site', id: seenFrom.siteId }))) levels.push('site');
  if (await may('cloud', { kind: 'cloud' })) levels.push('cloud');
  return { levels, defaultLevel: defaultKeyShortcutLevel(context) };
};
