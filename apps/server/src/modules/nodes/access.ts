import {
  type FolderPermission,
  folderAccessOf,
  hasRight,
  joinPath,
  type NodeRights,
  nodeRights,
  PERMISSIONS,
  pathSegments,
  splitAccountPath,
  type TreePermissions,
} from '@media/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { roleInAccount } from '../access/service.ts';
import { accounts, siteGroups, sites } from '../organisation/tables.ts';
import { ensureAccountRoot, findNodeByPath } from './repo.ts';
import { nodes } from './tables.ts';

/** Who the caller is in an account's tree: the role permissions, the role folder entries apply to. */
export type TreeAccess = {
  account: { id: number; name: string; siteId: number };
  permissions: TreePermissions;
  /** Null for those who manage the account as themselves: folder permissions never limit them. */
  roleId: number | null;
  actingRole: { id: number; name: string } | null;
  /** Folder entries of the account by inner path (only folders that have some). */
  folderPermissions: Map<string, FolderPermission[]>;
};

const ALL_PERMISSIONS: TreePermissions = new Set(PERMISSIONS);

const findAccount = async (db: DbOrTx, where: SQL) => {
  const [row] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      siteId: accounts.siteId,
      siteGroupId: sites.siteGroupId,
      resellerId: siteGroups.resellerId,
    })
    .from(accounts)
    .innerJoin(sites, eq(sites.id, accounts.siteId))
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .where(where);
  return row;
};

/** Every folder of the account that has its own entries; few, so one read serves any node's chain. */
const loadFolderPermissions = async (db: DbOrTx, accountId: number) => {
  const rows = await db
    .select({ path: nodes.path, permissions: nodes.permissions })
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), sql`${nodes.permissions} <> '[]'::jsonb`));
  return new Map(rows.map((row) => [row.path, row.permissions]));
};

/**
 * The caller's tree permissions in an account (the rights model of the brief): the role the session
 * acts as there, else the user's own role, else every permission for those who manage the account;
 * anyone else does not see the account (404 'Account not found').
 */
export const treeAccess = async (
  db: DbOrTx,
  actor: Actor,
  account: { name: string } | { id: number },
): Promise<TreeAccess> => accessIn(db, actor, await requireAccount(db, account));

type AccountRow = NonNullable<Awaited<ReturnType<typeof findAccount>>>;

const requireAccount = async (db: DbOrTx, account: { name: string } | { id: number }) => {
  const row = await findAccount(
    db,
    'id' in account
      ? eq(accounts.id, account.id)
      : eq(sql`lower(${accounts.name})`, account.name.toLowerCase()),
  );
  if (!row) throw notFound('Account');
  return row;
};

/** The caller's access to a found account; its role and folder entries are read at once. */
const accessIn = async (db: DbOrTx, actor: Actor, row: AccountRow): Promise<TreeAccess> => {
  const [role, folderPermissions] = await Promise.all([
    roleInAccount(db, actor, row.id),
    loadFolderPermissions(db, row.id),
  ]);
  const base = { account: { id: row.id, name: row.name, siteId: row.siteId } };
  if (role)
    return {
      ...base,
      permissions: new Set(role.permissions),
      roleId: role.id,
      actingRole: role.acting ? { id: role.id, name: role.name } : null,
      folderPermissions,
    };
  const ancestry = {
    accountId: row.id,
    siteId: row.siteId,
    siteGroupId: row.siteGroupId,
    resellerId: row.resellerId,
  };
  if (hasRight(await actor.rights(), 'account.manage', ancestry))
    return { ...base, permissions: ALL_PERMISSIONS, roleId: null, actingRole: null, folderPermissions };
  throw notFound('Account');
};

/** '/News/Clip' → ['/', '/News', '/News/Clip']. */
export const innerPathChain = (innerPath: string) => {
  const segments = pathSegments(innerPath);
  return ['/', ...segments.map((_, index) => joinPath(segments.slice(0, index + 1)))];
};

/** What the caller may do at a node, from the folder entries from the root down to it. */
export const rightsAt = (access: TreeAccess, innerPath: string): NodeRights =>
  nodeRights(access.permissions, folderAccessOf(access.roleId, chainOf(access, innerPath)));

const chainOf = (access: TreeAccess, innerPath: string) =>
  innerPathChain(innerPath).map((path) => access.folderPermissions.get(path) ?? []);

/** Inner paths of the folders that hide their subtree from the caller's role. */
export const hiddenPaths = (access: TreeAccess) =>
  access.roleId === null
    ? []
    : [...access.folderPermissions]
        .filter(([, permissions]) =>
          permissions.some((entry) => entry.roleId === access.roleId && entry.access === 'none'),
        )
        .map(([path]) => path);

/** `path like 'prefix/%'` for the subtree below an inner path, with the path's own % _ \ taken literally. */
export const belowPattern = (innerPath: string) =>
  `${innerPath === '/' ? '' : innerPath.replace(/[\\%_]/g, '\\$&')}/%`;

/** Excludes the subtrees hidden from the caller's role. */
export const notHidden = (access: TreeAccess): SQL | undefined => {
  const hidden = hiddenPaths(access);
  return hidden.length
    ? and(
        ...hidden.map(
          (path) => sql`not (${nodes.path} = ${path} or ${nodes.path} like ${belowPattern(path)})`,
        ),
      )
    : undefined;
};

/**
 * The node at an API path and the caller's rights there: 404 for an unknown account or node and for a
 * hidden one (its existence is private), 403 when the caller may not view it.
 */
export const requireNodeAt = async (db: DbOrTx, actor: Actor, apiPath: string) => {
  const { accountName, innerPath } = splitAccountPath(apiPath);
  const account = await requireAccount(db, { name: accountName });
  // The node is read with the access (one wait, not two); it is shown only if the access allows.
  const [access, found] = await Promise.all([
    accessIn(db, actor, account),
    findNodeByPath(db, account.id, innerPath),
  ]);
  // An account's root is made on its first visit; below a missing root there is nothing to find anyway.
  const node = found ?? (innerPath === '/' ? await ensureAccountRoot(db, access.account.id) : undefined);
  return { access, ...checkVisible(access, node) };
};

/** Whether a folder above (or at) the inner path hides it from the caller's role: such a node is not found. */
const isHiddenAt = (access: TreeAccess, innerPath: string) =>
  folderAccessOf(access.roleId, chainOf(access, innerPath)) === 'none';

export const checkVisible = <T extends { path: string }>(access: TreeAccess, node: T | undefined) => {
  if (!node) throw notFound('Node');
  if (isHiddenAt(access, node.path)) throw notFound('Node');
  const rights = rightsAt(access, node.path);
  if (!rights.canView) throw forbidden();
  return { node, rights };
};

/**
 * Whether the caller sees a thing (a media, a thumbnail) that the nodes at these inner paths show, by the
 * tree's rule: hidden when folders hide every node of them from the caller's role. A thing no node shows
 * lies in no folder, so none hides it.
 */
export const seesShownAt = (access: TreeAccess, innerPaths: readonly string[]) =>
  innerPaths.length === 0 || innerPaths.some((path) => !isHiddenAt(access, path));
