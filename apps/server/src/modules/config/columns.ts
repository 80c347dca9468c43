/** Metadata columns of accounts and sites, with what they inherit (spec1 §2, §4). */
import {
  type AnyColumnSet,
  CHANNELS,
  type ColumnKind,
  columnsProblem,
  DEFAULT_FILE_COLUMNS,
  DEFAULT_LOGGING_COLUMNS,
  type FileColumn,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { findAncestry, requireRight } from '../access/service.ts';
import * as repo from './repo.ts';
import type { StoredColumn } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

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

/** The file columns of an account's media (its own, or what it inherits): the metadata export's columns. */
export const accountFileColumns = async (db: DbOrTx, accountId: number): Promise<FileColumn[]> =>
  // The stored set of the file kind holds file columns (see asColumnSet).
  (await effectiveColumns(db, { scope: 'accounts', id: accountId }, 'file')) as FileColumn[];

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
