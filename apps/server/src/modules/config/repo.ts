import type { KeyShortcutLevel } from '@media/contract';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  columnSets,
  extraData,
  ingestFormats,
  keyboardExpansionMaps,
  keyShortcutDefaults,
  keyShortcutSets,
  type StoredColumn,
} from './tables.ts';

export type ExtraDataOwner = { scope: 'account' | 'site' | 'user'; scopeId: number };

const ofOwner = (owner: ExtraDataOwner) =>
  and(eq(extraData.scope, owner.scope), eq(extraData.scopeId, owner.scopeId));

export const findExtraData = async (db: DbOrTx, owner: ExtraDataOwner) => {
  const rows = await db
    .select({ key: extraData.key, value: extraData.value })
    .from(extraData)
    .where(ofOwner(owner))
    .orderBy(asc(extraData.key));
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
};

export const countExtraData = async (db: DbOrTx, owner: ExtraDataOwner) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(extraData).where(ofOwner(owner));
  return row?.n ?? 0;
};

export const upsertExtraData = (db: DbOrTx, owner: ExtraDataOwner, entries: [string, string][]) =>
  db
    .insert(extraData)
    .values(entries.map(([key, value]) => ({ ...owner, key, value })))
    .onConflictDoUpdate({
      target: [extraData.scope, extraData.scopeId, extraData.key],
      set: { value: sql`excluded.value` },
    });

export const deleteExtraData = (db: DbOrTx, owner: ExtraDataOwner, keys: string[]) =>
  db.delete(extraData).where(and(ofOwner(owner), inArray(extraData.key, keys)));

export const findIngestFormats = async (db: DbOrTx, accountId: number) => {
  const rows = await db
    .select({ format: ingestFormats.format })
    .from(ingestFormats)
    .where(eq(ingestFormats.accountId, accountId))
    .orderBy(asc(ingestFormats.position));
  return rows.map((row) => row.format);
};

export const replaceIngestFormats = async (db: DbOrTx, accountId: number, formats: string[]) => {
  await db.delete(ingestFormats).where(eq(ingestFormats.accountId, accountId));
  if (formats.length)
    await db
      .insert(ingestFormats)
      .values(formats.map((format, position) => ({ accountId, position, format })));
};

const mapColumns = {
  id: keyboardExpansionMaps.id,
  name: keyboardExpansionMaps.name,
  accountId: keyboardExpansionMaps.accountId,
};

export const findKeyMaps = (db: DbOrTx, accountId: number) =>
  db
    .select(mapColumns)
    .from(keyboardExpansionMaps)
    .where(eq(keyboardExpansionMaps.accountId, accountId))
    .orderBy(asc(sql`lower(${keyboardExpansionMaps.name})`), asc(keyboardExpansionMaps.id));

export const findKeyMap = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(keyboardExpansionMaps).where(eq(keyboardExpansionMaps.id, id));
  return row;
};

export const insertKeyMap = async (
  db: DbOrTx,
  values: typeof keyboardExpansionMaps.$inferInsert,
): Promise<number> => {
  const [row] = await db
    .insert(keyboardExpansionMaps)
    .values(values)
    .returning({ id: keyboardExpansionMaps.id });
  return (row as { id: number }).id;
};

export type KeyShortcutRow = typeof keyShortcutSets.$inferSelect;

/** The sets seen from a context: the cloud's, the site's, the account's and the user's own. */
export const findKeyShortcutSets = (
  db: DbOrTx,
  context: { userId: number; accountId?: number; siteId?: number },
): Promise<KeyShortcutRow[]> =>
  db
    .select()
    .from(keyShortcutSets)
    .where(
      or(
        eq(keyShortcutSets.level, 'cloud'),
        context.siteId
          ? and(eq(keyShortcutSets.level, 'site'), eq(keyShortcutSets.siteId, context.siteId))
          : undefined,
        context.accountId
          ? and(eq(keyShortcutSets.level, 'account'), eq(keyShortcutSets.accountId, context.accountId))
          : undefined,
        and(eq(keyShortcutSets.level, 'user'), eq(keyShortcutSets.userId, context.userId)),
      ),
    )
    .orderBy(asc(sql`lower(${keyShortcutSets.name})`), asc(keyShortcutSets.id));

export const findKeyShortcutSet = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(keyShortcutSets).where(eq(keyShortcutSets.id, id));
  return row;
};

export const findKeyShortcutSetsByIds = (db: DbOrTx, ids: number[]) =>
  db
    .select()
    .from(keyShortcutSets)
    .where(inArray(keyShortcutSets.id, [...ids, -1]));

export const updateKeyShortcutSet = (
  db: DbOrTx,
  id: number,
  values: {
    name: string;
    parentId: number | null;
    visible: boolean;
    level: KeyShortcutLevel;
    userId: number | null;
    accountId: number | null;
    siteId: number | null;
  },
) => db.update(keyShortcutSets).set(values).where(eq(keyShortcutSets.id, id));

export const deleteKeyShortcutSet = (db: DbOrTx, id: number) =>
  db.delete(keyShortcutSets).where(eq(keyShortcutSets.id, id));

export type DefaultScope = { scope: 'account' | 'site' | 'cloud'; scopeId: number };

/** The defaults that apply from a context, narrowest first. */
export const findKeyShortcutDefaults = async (db: DbOrTx, scopes: DefaultScope[]) => {
  if (!scopes.length) return [];
  return db
    .select()
    .from(keyShortcutDefaults)
    .where(
      or(
        ...scopes.map((s) =>
          and(eq(keyShortcutDefaults.scope, s.scope), eq(keyShortcutDefaults.scopeId, s.scopeId)),
        ),
      ),
    );
};

export const setKeyShortcutDefault = (db: DbOrTx, scope: DefaultScope, keyShortcutSetId: number) =>
  db
    .insert(keyShortcutDefaults)
    .values({ ...scope, keyShortcutSetId })
    .onConflictDoUpdate({
      target: [keyShortcutDefaults.scope, keyShortcutDefaults.scopeId],
      set: { keyShortcutSetId },
    });

export const isDefaultAnywhere = async (db: DbOrTx, keyShortcutSetId: number) => {
  const [row] = await db
    .select({ scope: keyShortcutDefaults.scope })
    .from(keyShortcutDefaults)
    .where(eq(keyShortcutDefaults.keyShortcutSetId, keyShortcutSetId))
    .limit(1);
  return row !== undefined;
};

/**
 * Clone steps (issue 6): an account's metadata column sets, extra data, ingest formats, keyboard expansion maps, and its
 * account-level key shortcut sets with their parent links and its default remapped to the copies.
 */
export const copyAccountConfiguration = async (db: DbOrTx, fromId: number, toId: number) => {
  await db.execute(sql`insert into column_sets (scope, scope_id, kind, columns, auto_inherit)
    select scope, ${toId}, kind, columns, auto_inherit from column_sets where scope = 'account' and scope_id = ${fromId}`);
  await db.execute(sql`insert into extra_data (scope, scope_id, key, value)
    select scope, ${toId}, key, value from extra_data where scope = 'account' and scope_id = ${fromId}`);
  await db.execute(sql`insert into ingest_formats (account_id, position, format)
    select ${toId}, position, format from ingest_formats where account_id = ${fromId}`);
  await db.execute(sql`insert into keyboard_expansion_maps (account_id, name, expansions)
    select ${toId}, name, expansions from keyboard_expansion_maps where account_id = ${fromId} order by id`);
  const sets = await db
    .select()
    .from(keyShortcutSets)
    .where(and(eq(keyShortcutSets.level, 'account'), eq(keyShortcutSets.accountId, fromId)))
    .orderBy(asc(keyShortcutSets.id));
  const copyOf = new Map<number, number>();
  for (const { id, parentId: _parentId, ...set } of sets) {
    const [row] = await db
      .insert(keyShortcutSets)
      .values({ ...set, accountId: toId, parentId: null })
      .returning({ id: keyShortcutSets.id });
    copyOf.set(id, (row as { id: number }).id);
  }
  for (const set of sets) {
    if (set.parentId === null) continue;
    // A parent outside the account (site or cloud level) is shared, so the copy keeps pointing at it.
    const parentId = copyOf.get(set.parentId) ?? set.parentId;
    await db
      .update(keyShortcutSets)
      .set({ parentId })
      .where(eq(keyShortcutSets.id, copyOf.get(set.id) as number));
  }
  const [fromDefault] = await findKeyShortcutDefaults(db, [{ scope: 'account', scopeId: fromId }]);
  if (fromDefault)
    await setKeyShortcutDefault(
      db,
      { scope: 'account', scopeId: toId },
      copyOf.get(fromDefault.keyShortcutSetId) ?? fromDefault.keyShortcutSetId,
    );
};

export type ColumnScope = { scope: 'cloud' | 'site' | 'account'; scopeId: number | null };

const ofColumnScope = ({ scope, scopeId }: ColumnScope, kind: 'file' | 'logging') =>
  and(
    eq(columnSets.scope, scope),
    scopeId === null ? sql`${columnSets.scopeId} is null` : eq(columnSets.scopeId, scopeId),
    eq(columnSets.kind, kind),
  );

export const findColumnSet = async (db: DbOrTx, owner: ColumnScope, kind: 'file' | 'logging') => {
  const [row] = await db
    .select({ columns: columnSets.columns, autoInherit: columnSets.autoInherit })
    .from(columnSets)
    .where(ofColumnScope(owner, kind));
  return row;
};

export const saveColumnSet = async (
  db: DbOrTx,
  owner: ColumnScope,
  kind: 'file' | 'logging',
  set: { columns: StoredColumn[]; autoInherit: boolean },
) => {
  const updated = await db
    .update(columnSets)
    .set(set)
    .where(ofColumnScope(owner, kind))
    .returning({ id: columnSets.id });
  if (!updated.length) await db.insert(columnSets).values({ ...owner, kind, ...set });
};
