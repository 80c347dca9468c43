import {
  type Account,
  type AccountAccessFlags,
  type AccountCreate,
  type AccountsQuery,
  type AccountUpdate,
  CHANNELS,
  hasRight,
  isReservedName,
  MSG_ACCOUNT_LOCKED,
  MSG_ACCOUNT_NAME_RESERVED_BY_OTHER,
  MSG_ACCOUNT_NAME_RESERVED_PATH,
  MSG_ACCOUNT_NAME_TAKEN,
  MSG_CONCURRENT_LIMIT_REACHED,
  mayEnterAccount,
  mediaManagerLink,
  type RightsSnapshot,
} from '@media/contract';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { managedSiteIds, requireReferenceRight, requireRight } from '../access/service.ts';
import { accountAccess, roles } from '../access/tables.ts';
import { copyAccountConfiguration } from '../config/service.ts';
import { resellers, sites } from '../organisation/tables.ts';
import * as repo from './repo.ts';

const accessFlags = (rights: RightsSnapshot, row: NonNullable<repo.AccountRow>): AccountAccessFlags => {
  const ancestry = {
    accountId: row.account.id,
    siteId: row.account.siteId,
    siteGroupId: row.siteGroupId,
    resellerId: row.resellerId,
  };
  return {
    canManage: hasRight(rights, 'account.manage', ancestry),
    canChangeSite: rights.admin,
    canChangeReseller: hasRight(rights, 'account.changeReseller', ancestry),
    canChangeBilling: hasRight(rights, 'site.manage', ancestry),
    canSeeNotes: hasRight(rights, 'site.manage', ancestry),
  };
};

/**
 * The account as this user may see it. Notes are for site managers and above; billing and contact
 * fields for those who manage the account (spec1 §2 and §6): account users without a manager role get
 * them empty.
 */
const toAccount = (row: NonNullable<repo.AccountRow>, access: AccountAccessFlags): Account => {
  const { account } = row;
  const managed = <T>(value: T, hidden: T) => (access.canManage ? value : hidden);
  return {
    id: account.id,
    name: account.name,
    siteId: account.siteId,
    siteName: row.siteName,
    resellerId: row.resellerId,
    billingGroupId: managed(account.billingGroupId, null),
    billingGroupName: managed(row.billingGroupName, null),
    productionName: account.productionName,
    department: account.department,
    billingId: managed(account.billingId, ''),
    editLimit: account.editLimit,
    welcomeMessage: account.welcomeMessage,
    notes: access.canSeeNotes ? account.notes : null,
    version: account.version,
    launchMode: account.launchMode,
    skin: account.skin,
    defaultEditMode: account.defaultEditMode,
    contactName: managed(account.contactName, ''),
    contactEmail: managed(account.contactEmail, ''),
    contactCompany: managed(account.contactCompany, ''),
    contactPhone: managed(account.contactPhone, ''),
    concurrentUserLimit: account.concurrentUserLimit,
    disabled: account.disabled,
    editor: { maxVideo: account.maxVideo },
    createdAt: account.createdAt.toISOString(),
    access,
  };
};

const scopeOf = async (
  db: DbOrTx,
  rights: RightsSnapshot,
  managedOnly: boolean,
): Promise<repo.AccountScope> => {
  const sites = await managedSiteIds(db, rights);
  return sites === 'all'
    ? 'all'
    : { accounts: [...(managedOnly ? rights.accountManager : rights.accounts)], sites };
};

export const listAccounts = async (options: { ctx: AppContext; actor: Actor; query: AccountsQuery }) => {
  const rights = await options.actor.rights();
  const page = await repo.findAccountsPage(
    options.ctx.db,
    options.query,
    await scopeOf(options.ctx.db, rights, options.query.managed === '1'),
  );
  return {
    rows: page.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total: page.total,
  };
};

/** The account as the actor may see it; 404 when it does not exist or is not theirs to see. */
const loadVisible = async (db: DbOrTx, actor: Actor, where: ReturnType<typeof repo.byId>) => {
  const row = await repo.findAccountRow(db, where);
  const rights = await actor.rights();
  const ancestry = row && {
    accountId: row.account.id,
    siteId: row.account.siteId,
    siteGroupId: row.siteGroupId,
    resellerId: row.resellerId,
  };
  if (!row || !ancestry || !hasRight(rights, 'account.use', ancestry)) throw notFound('Account');
  return { row, rights, access: accessFlags(rights, row) };
};

export const getAccount = async (options: { ctx: AppContext; actor: Actor; id?: number; name?: string }) => {
  const where = options.id !== undefined ? repo.byId(options.id) : repo.byName(options.name ?? '');
  const { row, access } = await loadVisible(options.ctx.db, options.actor, where);
  return toAccount(row, access);
};

/** A billing group (reseller) that does not exist, or that the actor may not see. */
export const MSG_BILLING_GROUP_NOT_FOUND = 'Billing group not found';

/** Which right each field needs beyond managing the account (spec1 §6). */
const FIELD_RIGHT: Partial<Record<keyof AccountUpdate, keyof AccountAccessFlags>> = {
  siteId: 'canChangeSite',
  version: 'canChangeSite',
  launchMode: 'canChangeSite',
  skin: 'canChangeSite',
  maxVideo: 'canChangeSite',
  billingGroupId: 'canChangeReseller',
  billingId: 'canChangeBilling',
  concurrentUserLimit: 'canChangeBilling',
  disabled: 'canChangeBilling',
  notes: 'canSeeNotes',
};

const currentValue = (account: NonNullable<repo.AccountRow>['account'], field: keyof AccountUpdate) =>
  account[field as keyof typeof account];

export const updateAccount = async (options: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  change: AccountUpdate;
}) => {
  const { db, publish } = options.ctx;
  const { row, access } = await loadVisible(db, options.actor, repo.byId(options.id));
  if (!access.canManage) throw forbidden();
  const refused = (Object.keys(options.change) as (keyof AccountUpdate)[]).filter((field) => {
    const right = FIELD_RIGHT[field];
    // Unchanged read-only values may come back with the form; only a change needs the right.
    return right && !access[right] && options.change[field] !== currentValue(row.account, field);
  });
  if (refused.length)
    throw new AppError('forbidden', `You may not change: ${refused.join(', ')}`, {
      status: 403,
      fields: Object.fromEntries(refused.map((field) => [field, 'You may not change this field'])),
    });
  const change = options.change;
  if (change.siteId !== undefined && change.siteId !== row.account.siteId) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, change.siteId));
    if (!site) throw badRequest('Site not found', { siteId: 'Site not found' });
  }
  if (change.billingGroupId != null && change.billingGroupId !== row.account.billingGroupId) {
    // A reseller of another organisation is refused like a read of it (the resellers list shows only those
    // the actor manages): as if it did not exist.
    const [reseller] = await db
      .select({ id: resellers.id })
      .from(resellers)
      .where(eq(resellers.id, change.billingGroupId));
    if (!reseller || !hasRight(await options.actor.rights(), 'reseller.manage', { resellerId: reseller.id }))
      throw badRequest(MSG_BILLING_GROUP_NOT_FOUND, { billingGroupId: MSG_BILLING_GROUP_NOT_FOUND });
  }
  await repo.updateAccount(db, options.id, change);
  await publish(CHANNELS.account(options.id), [options.id]);
  await publish(CHANNELS.accounts, [options.id]);
  return getAccount({ ctx: options.ctx, actor: options.actor, id: options.id });
};

/** Refuses names that are reserved path segments (400), taken (409) or held by another clone (409). */
const checkNewName = async (db: DbOrTx, name: string, userId: number) => {
  if (isReservedName(name))
    throw badRequest(MSG_ACCOUNT_NAME_RESERVED_PATH, { name: MSG_ACCOUNT_NAME_RESERVED_PATH });
  if (await repo.accountNameExists(db, name))
    throw conflict(MSG_ACCOUNT_NAME_TAKEN, { name: MSG_ACCOUNT_NAME_TAKEN });
  const reservation = await repo.findReservation(db, name);
  if (reservation && reservation.userId !== userId)
    throw conflict(MSG_ACCOUNT_NAME_RESERVED_BY_OTHER, { name: MSG_ACCOUNT_NAME_RESERVED_BY_OTHER });
};

const nameTaken = () => conflict(MSG_ACCOUNT_NAME_TAKEN, { name: MSG_ACCOUNT_NAME_TAKEN });

/**
 * What a clone copies besides the account's own settings: each account-scoped area adds its step here
 * (workflows, columns, then extra data, ingest formats, keyboard expansion maps and key shortcuts).
 */
const CLONE_STEPS: ((tx: Tx, fromId: number, toId: number) => Promise<void>)[] = [
  (tx, fromId, toId) => repo.copyWorkflows(tx, fromId, toId),
  (tx, fromId, toId) => copyAccountConfiguration(tx, fromId, toId),
];

export const createAccount = async (options: { ctx: AppContext; actor: Actor; body: AccountCreate }) => {
  const { ctx, actor, body } = options;
  const { db, publish } = ctx;
  if ('reserveKey' in body || 'unreserveKey' in body) return reserve({ ctx, actor, body });
  let newId: number;
  try {
    if ('cloneFrom' in body) {
      const { row } = await loadVisible(db, actor, repo.byId(body.cloneFrom));
      const siteId = body.siteId ?? row.account.siteId;
      await requireReferenceRight(db, actor, 'site.manage', { kind: 'site', id: siteId });
      await checkNewName(db, body.name, actor.userId);
      newId = await db.transaction(async (tx) => {
        const { id: _id, createdAt: _createdAt, ...settings } = row.account;
        const id = await repo.insertAccount(tx, { ...settings, name: body.name, siteId, disabled: false });
        for (const step of CLONE_STEPS) await step(tx, row.account.id, id);
        await repo.releaseName(tx, body.name);
        return id;
      });
    } else {
      await requireReferenceRight(db, actor, 'site.manage', { kind: 'site', id: body.siteId });
      await checkNewName(db, body.name, actor.userId);
      newId = await repo.insertAccount(db, {
        name: body.name,
        siteId: body.siteId,
        productionName: body.productionName ?? '',
        contactName: body.contactName ?? '',
        contactEmail: body.contactEmail ?? '',
      });
    }
  } catch (error) {
    throw translateUniqueViolation(error, nameTaken);
  }
  await publish(CHANNELS.accounts, [newId]);
  return getAccount({ ctx, actor, id: newId });
};

const reserve = async (options: {
  ctx: AppContext;
  actor: Actor;
  body: Extract<AccountCreate, { cloneFrom: number }> & { reserveKey?: true; unreserveKey?: true };
}) => {
  const { ctx, actor, body } = options;
  const { row } = await loadVisible(ctx.db, actor, repo.byId(body.cloneFrom));
  await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: row.account.siteId });
  if (body.unreserveKey) {
    const reservation = await repo.findReservation(ctx.db, body.name);
    if (reservation && reservation.userId !== actor.userId && !(await actor.rights()).admin)
      throw conflict(MSG_ACCOUNT_NAME_RESERVED_BY_OTHER);
    await repo.releaseName(ctx.db, body.name);
    return { name: body.name, reserved: false };
  }
  await checkNewName(ctx.db, body.name, actor.userId);
  await repo.reserveName(ctx.db, { name: body.name, cloneFrom: body.cloneFrom, userId: actor.userId });
  return { name: body.name, reserved: true };
};

export const listWorkflows = async (options: { ctx: AppContext; actor: Actor; id: number }) => {
  await loadVisible(options.ctx.db, options.actor, repo.byId(options.id));
  return repo.findWorkflows(options.ctx.db, options.id);
};

/**
 * Enters the account (launches the media manager), optionally acting as one of its roles. The concurrent
 * user limit counts distinct users inside; site managers and above are never kept out.
 */
export const launch = async (options: { ctx: AppContext; actor: Actor; id: number; roleId?: number }) => {
  const { ctx, actor } = options;
  const { db, config } = ctx;
  const { row, rights } = await loadVisible(db, actor, repo.byId(options.id));
  const ancestry = {
    accountId: row.account.id,
    siteId: row.account.siteId,
    siteGroupId: row.siteGroupId,
    resellerId: row.resellerId,
  };
  const [ownAccess] = await db
    .select({ roleId: accountAccess.roleId })
    .from(accountAccess)
    .where(and(eq(accountAccess.accountId, options.id), eq(accountAccess.userId, actor.userId)));
  let roleId = options.roleId ?? ownAccess?.roleId;
  if (roleId === undefined) {
    const [manager] = await db.select({ id: roles.id }).from(roles).where(eq(roles.isManager, true)).limit(1);
    roleId = manager?.id;
  }
  if (roleId === undefined) throw notFound('Role');
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
  if (!role || (role.siteId !== null && role.siteId !== row.account.siteId))
    throw badRequest('Role not found', { roleId: 'Role not found' });
  // Only those who manage the account may act as another role than their own.
  if (roleId !== ownAccess?.roleId && !hasRight(rights, 'account.manage', ancestry)) throw forbidden();
  if (!hasRight(rights, 'site.manage', ancestry)) {
    const limit = row.account.concurrentUserLimit;
    if (limit === 0) throw new AppError('account_locked', MSG_ACCOUNT_LOCKED, { status: 403 });
    const idleSince = new Date(Date.now() - config.sessionIdleMinutes * 60_000);
    const inside = await repo.countUsersInside(db, options.id, actor.userId, idleSince);
    if (!mayEnterAccount(limit, inside, false))
      throw new AppError('concurrent_limit', MSG_CONCURRENT_LIMIT_REACHED, { status: 409 });
  }
  // Without a role the session goes back to its own rights (the media manager's Reset role).
  const actingRoleId = options.roleId === undefined || roleId === ownAccess?.roleId ? null : roleId;
  await repo.enterAccount(db, actor.sessionIdHash, options.id, actingRoleId);
  await ctx.publish(CHANNELS.sessions(options.id), [actor.sessionPublicId]);
  return {
    accountId: options.id,
    roleId,
    url: mediaManagerLink(row.account.name, { roleId }),
  };
};
