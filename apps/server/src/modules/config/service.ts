import {
  type AnyColumnSet,
  CHANNELS,
  type ColumnKind,
  columnsProblem,
  DEFAULT_FILE_COLUMNS,
  DEFAULT_LOGGING_COLUMNS,
  type DefaultKeyShortcut,
  defaultKeyShortcutLevel,
  EXTRA_DATA_LIMITS,
  type ExtraDataScope,
  type ExtraDataUpdate,
  extraDataKeyOf,
  hasRight,
  ingestFormatsProblem,
  isUploadFormatOptionKey,
  type KeyboardExpansionExport,
  type KeyShortcutContext,
  type KeyShortcutLevel,
  type KeyShortcutSet,
  keyboardExpansionXml,
  MSG_EXTRA_DATA_TOO_MANY,
  MSG_KEY_MAP_NAME_IN_USE,
  MSG_KEY_SHORTCUT_DEFAULT_HIDDEN,
  MSG_KEY_SHORTCUT_LEVEL_REFUSED,
  MSG_KEY_SHORTCUT_PARENT_LOOP,
  MSG_NO_UPLOAD_FORMAT_OPTION,
  packIngestFormat,
  type Right,
  unpackIngestFormat,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import {
  type EntityRef,
  findAncestry,
  requireRight,
  requireUserManagement,
} from '../../platform/permissions.ts';
import * as repo from './repo.ts';
import type { StoredColumn } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

const OWNER_SCOPE = { accounts: 'account', sites: 'site', users: 'user' } as const;

/** Accounts: their managers; sites: site managers; users: themselves and whoever manages them. */
const requireExtraDataRight = async (ctx: AppContext, actor: Actor, scope: ExtraDataScope, id: number) => {
  if (scope === 'accounts') await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id });
  else if (scope === 'sites') await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id });
  else await requireUserManagement(ctx.db, actor, id);
};

export const getExtraData = async ({
  ctx,
  actor,
  scope,
  id,
}: Call<{ scope: ExtraDataScope; id: number }>) => {
  await requireExtraDataRight(ctx, actor, scope, id);
  return repo.findExtraData(ctx.db, { scope: OWNER_SCOPE[scope], scopeId: id });
};

/** Sets and deletes keys in one transaction, then answers the whole object. */
export const updateExtraData = async ({
  ctx,
  actor,
  scope,
  id,
  update,
}: Call<{ scope: ExtraDataScope; id: number; update: ExtraDataUpdate }>) => {
  await requireExtraDataRight(ctx, actor, scope, id);
  const owner = { scope: OWNER_SCOPE[scope], scopeId: id };
  const entries = Object.entries(update);
  if (scope === 'accounts') {
    const refused = entries.find(([key]) => isUploadFormatOptionKey(extraDataKeyOf(key) ?? key));
    if (refused)
      throw new AppError('noUploadFormatOption', MSG_NO_UPLOAD_FORMAT_OPTION, {
        status: 400,
        fields: { [refused[0]]: MSG_NO_UPLOAD_FORMAT_OPTION },
      });
  }
  const toSet = entries.filter((entry): entry is [string, string] => entry[1] !== null);
  const toDelete = entries.filter(([, value]) => value === null).map(([key]) => key);
  await ctx.db.transaction(async (tx) => {
    if (toDelete.length) await repo.deleteExtraData(tx, owner, toDelete);
    if (toSet.length) await repo.upsertExtraData(tx, owner, toSet);
    if ((await repo.countExtraData(tx, owner)) > EXTRA_DATA_LIMITS.keysPerObject)
      throw badRequest(MSG_EXTRA_DATA_TOO_MANY);
  });
  await ctx.publish(CHANNELS.extraData(scope, id), [id]);
  return repo.findExtraData(ctx.db, owner);
};

export const getIngestFormats = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  return repo.findIngestFormats(ctx.db, accountId);
};

/** Replaces the list; unknown or repeated entries are refused, the rest stored normalised. */
export const saveIngestFormats = async ({
  ctx,
  actor,
  accountId,
  formats,
}: Call<{ accountId: number; formats: string[] }>) => {
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  const problem = ingestFormatsProblem(formats);
  if (problem) throw badRequest(problem);
  const normalised = formats.map((stored) => packIngestFormat(unpackIngestFormat(stored).format));
  await ctx.db.transaction((tx) => repo.replaceIngestFormats(tx, accountId, normalised));
  await ctx.publish(CHANNELS.ingestFormats(accountId), [accountId]);
  return normalised;
};

export const listKeyMaps = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  return repo.findKeyMaps(ctx.db, accountId);
};

/** Export: a copy of a map the user manages into another account they manage, under a new name. */
export const exportKeyMap = async ({ ctx, actor, body }: Call<{ body: KeyboardExpansionExport }>) => {
  const source = await repo.findKeyMap(ctx.db, body.cloneFromId);
  if (!source) throw notFound('Keyboard expansion map');
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: source.accountId });
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: body.accountId });
  let id: number;
  try {
    id = await repo.insertKeyMap(ctx.db, {
      accountId: body.accountId,
      name: body.name,
      expansions: source.expansions,
    });
  } catch (error) {
    throw translateUniqueViolation(error, () =>
      conflict(MSG_KEY_MAP_NAME_IN_USE, { name: MSG_KEY_MAP_NAME_IN_USE }),
    );
  }
  await ctx.publish(CHANNELS.keyboardExpansions(body.accountId), [id]);
  return { id, name: body.name, accountId: body.accountId };
};

/** The Download as XML file; the map must belong to the account named in the link. */
export const keyMapXml = async ({ ctx, actor, accountId, id }: Call<{ accountId: number; id: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  const map = await repo.findKeyMap(ctx.db, id);
  if (!map || map.accountId !== accountId) throw notFound('Keyboard expansion map');
  return { name: map.name, xml: keyboardExpansionXml(map.name, map.expansions) };
};

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

/** Used by the accounts module's clone, inside its transaction. */
export const copyAccountConfiguration = (tx: DbOrTx, fromId: number, toId: number) =>
  repo.copyAccountConfiguration(tx, fromId, toId);

type ColumnOwner = { scope: 'accounts' | 'sites'; id: number };

/**
 * The jsonb column holds one kind's columns (the kind is part of the row's key), which TypeScript cannot
 * see: this is the one place that says so.
 */
const asColumnSet = (columns: StoredColumn[], autoInherit: boolean) =>
  ({ columns, autoInherit }) as AnyColumnSet;

/** The columns an owner inherits: an account its site's, a site the cloud's (spec1 §2 Default). */
const inheritedColumns = async (
  db: DbOrTx,
  owner: ColumnOwner,
  kind: ColumnKind,
): Promise<StoredColumn[]> => {
  if (owner.scope === 'accounts') {
    const ancestry = await findAncestry(db, { kind: 'account', id: owner.id });
    if (!ancestry?.siteId) throw notFound('Account');
    return effectiveColumns(db, { scope: 'sites', id: ancestry.siteId }, kind);
  }
  const cloud = await repo.findColumnSet(db, { scope: 'cloud', scopeId: null }, kind);
  return cloud?.columns ?? (kind === 'file' ? DEFAULT_FILE_COLUMNS : DEFAULT_LOGGING_COLUMNS);
};

const storedScope = (owner: ColumnOwner): repo.ColumnScope => ({
  scope: owner.scope === 'accounts' ? 'account' : 'site',
  scopeId: owner.id,
});

const effectiveColumns = async (
  db: DbOrTx,
  owner: ColumnOwner,
  kind: ColumnKind,
): Promise<StoredColumn[]> => {
  const own = await repo.findColumnSet(db, storedScope(owner), kind);
  return own && !own.autoInherit ? own.columns : inheritedColumns(db, owner, kind);
};

/** Reading: any user of an account (the media manager shows the columns); a site's managers. */
const requireColumnsRight = (ctx: AppContext, actor: Actor, owner: ColumnOwner, write: boolean) =>
  owner.scope === 'accounts'
    ? requireRight(ctx.db, actor, write ? 'account.manage' : 'account.use', { kind: 'account', id: owner.id })
    : requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: owner.id });

export const getColumns = async ({
  ctx,
  actor,
  owner,
  kind,
}: Call<{ owner: ColumnOwner; kind: ColumnKind }>) => {
  await requireColumnsRight(ctx, actor, owner, false);
  const own = await repo.findColumnSet(ctx.db, storedScope(owner), kind);
  const autoInherit = own?.autoInherit ?? true;
  return asColumnSet(
    autoInherit ? await inheritedColumns(ctx.db, owner, kind) : (own?.columns ?? []),
    autoInherit,
  );
};

export const getDefaultColumns = async ({
  ctx,
  actor,
  owner,
  kind,
}: Call<{ owner: ColumnOwner; kind: ColumnKind }>) => {
  await requireColumnsRight(ctx, actor, owner, false);
  return asColumnSet(await inheritedColumns(ctx.db, owner, kind), true).columns;
};

/** spec1 §4: saving with inherit on keeps a copy of the defaults as the custom list. */
export const saveColumns = async ({
  ctx,
  actor,
  owner,
  kind,
  set,
}: Call<{
  owner: ColumnOwner;
  kind: ColumnKind;
  set: { columns: StoredColumn[]; autoInherit: boolean };
}>) => {
  await requireColumnsRight(ctx, actor, owner, true);
  const columns = set.autoInherit ? await inheritedColumns(ctx.db, owner, kind) : set.columns;
  if (!set.autoInherit) {
    const problem = columnsProblem(columns);
    if (problem) throw badRequest(problem);
  }
  await ctx.db.transaction((tx) =>
    repo.saveColumnSet(tx, storedScope(owner), kind, { columns, autoInherit: set.autoInherit }),
  );
  await ctx.publish(CHANNELS.columns(owner.scope, owner.id), [owner.id]);
  return asColumnSet(columns, set.autoInherit);
};
