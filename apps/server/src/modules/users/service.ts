import {
  CHANNELS,
  hasRight,
  MSG_EMAIL_TAKEN,
  MSG_EMAIL_USED_IN_BATCH,
  MSG_EMAILVERIFIED_ONLY_RAISED,
  MSG_USER_CREATED,
  MSG_USER_WOULD_BE_CREATED,
  MSG_USERNAME_TAKEN,
  REGISTRATION_TOKEN_DAYS,
  USER_SEARCH_LIMIT,
  USER_SEARCH_LIMIT_WIDE,
  type UserImportResult,
  type UserImportRow,
  type UsersQuery,
  type UserUpdate,
  userImportRowProblem,
  usernameFromEmail,
} from '@media/contract';
import { and, inArray, type SQL } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { requireRecentSignIn } from '../../platform/auth/reauth.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import {
  findAncestry,
  manageableBy,
  requireRight,
  requireUserManagement,
  visibleSiteIds,
} from '../access/service.ts';
import { accounts } from '../organisation/tables.ts';
import { createPasswordToken, passwordLink } from '../passwords/service.ts';
import { emitUserEvent } from '../webhooks/payloads.ts';
import * as repo from './repo.ts';
import { users } from './tables.ts';

/** Sites where the actor manages something (the site, or an account in it): whose users they may search. */
const managedSiteIds = async (ctx: AppContext, actor: Actor): Promise<number[] | 'all'> => {
  const rights = await actor.rights();
  if (rights.admin) return 'all';
  const visible = await visibleSiteIds(ctx.db, rights);
  if (visible === 'all') return 'all';
  const ofManagedAccounts = rights.accountManager.size
    ? (
        await ctx.db
          .select({ siteId: accounts.siteId })
          .from(accounts)
          .where(inArray(accounts.id, [...rights.accountManager]))
      ).map((row) => row.siteId)
    : [];
  const managed: number[] = [];
  for (const siteId of visible) {
    const ancestry = await findAncestry(ctx.db, { kind: 'site', id: siteId });
    if ((ancestry && hasRight(rights, 'site.manage', ancestry)) || ofManagedAccounts.includes(siteId))
      managed.push(siteId);
  }
  return managed;
};

export const listUsers = async (options: { ctx: AppContext; actor: Actor; query: UsersQuery }) => {
  const { ctx, actor, query } = options;
  const rights = await actor.rights();
  const type =
    query.type ?? (query.accountId ? 'account' : query.siteId ? 'site' : rights.admin ? 'all' : 'site');
  const limit = query.limit ?? (type === 'all' ? USER_SEARCH_LIMIT_WIDE : USER_SEARCH_LIMIT);
  let filter: Parameters<typeof repo.findUsersPage>[1]['filter'];
  if (type === 'all') {
    if (!rights.admin) throw forbidden();
  } else if (type === 'account') {
    if (!query.accountId)
      throw badRequest('accountId is required for type account', { accountId: 'Required' });
    await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: query.accountId });
    filter = repo.ofAccount(ctx.db, query.accountId);
  } else {
    const managed = await managedSiteIds(ctx, actor);
    let ofSites: SQL | undefined;
    if (query.siteId) {
      const ancestry = await findAncestry(ctx.db, { kind: 'site', id: query.siteId });
      if (!ancestry) throw notFound('Site');
      if (managed !== 'all' && !managed.includes(query.siteId)) throw forbidden();
      ofSites = repo.ofSites(ctx.db, [query.siteId]);
    } else if (managed !== 'all') {
      if (managed.length === 0) throw forbidden();
      ofSites = repo.ofSites(ctx.db, managed);
    }
    // The search offers the users one may add to an account or make a manager: only those one manages.
    filter = and(ofSites, await manageableBy(ctx.db, actor, users.id));
  }
  return repo.findUsersPage(ctx.db, { filter, searchText: query.searchText, offset: query.offset, limit });
};

/** 404 alike for a missing user and one the actor may not manage: the answer never tells existence. */
export const getUser = async (options: { ctx: AppContext; actor: Actor; id: number }) => {
  await requireUserManagement(options.ctx.db, options.actor, options.id);
  return (await repo.findUser(options.ctx.db, options.id)) as NonNullable<
    Awaited<ReturnType<typeof repo.findUser>>
  >;
};

/**
 * Checks, and holds until the transaction ends, that a user name and an email are free: neither names
 * another user, as user name or as email (sign-in and password reset take either, so an identifier of
 * two users would reach the wrong one). 409 with the field's message otherwise. Other areas that create
 * users (invitations) call it in their transaction.
 */
export const requireFreeIdentifiers = async (
  tx: DbOrTx,
  wanted: { username?: string; email?: string; exceptId?: number },
) => {
  await repo.lockIdentifiers(tx);
  const taken = await repo.findTakenIdentifiers(
    tx,
    [wanted.username ?? '', wanted.email ?? ''],
    wanted.exceptId,
  );
  if (wanted.username && taken.has(repo.identifierKey(wanted.username)))
    throw conflict(MSG_USERNAME_TAKEN, { username: MSG_USERNAME_TAKEN });
  if (wanted.email && taken.has(repo.identifierKey(wanted.email)))
    throw conflict(MSG_EMAIL_TAKEN, { email: MSG_EMAIL_TAKEN });
};

export const updateUser = async (options: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  change: UserUpdate;
}) => {
  const { ctx, actor, id, change } = options;
  await requireUserManagement(ctx.db, actor, id);
  const current = await repo.findUser(ctx.db, id);
  if (!current) throw notFound('User');
  if (change.emailverified === false && current.emailverified)
    throw badRequest(MSG_EMAILVERIFIED_ONLY_RAISED, { emailverified: MSG_EMAILVERIFIED_ONLY_RAISED });
  if (change.disabled !== undefined && change.disabled !== current.disabled && actor.userId === id)
    throw forbidden('You cannot disable your own user');
  // One's own e-mail is where password resets go: changing it needs a recent sign-in (ASVS 7.5.1).
  if (actor.userId === id && change.email !== undefined && change.email !== current.email)
    requireRecentSignIn(actor, ctx.config);
  await ctx.db.transaction(async (tx) => {
    if (change.username !== undefined || change.email !== undefined)
      await requireFreeIdentifiers(tx, { username: change.username, email: change.email, exceptId: id });
    await repo.updateUser(tx, id, change);
    if (change.disabled === true && !current.disabled) await emitUserEvent(ctx, tx, 'user.disabled', [id]);
  });
  await ctx.publish(CHANNELS.users, [id]);
  return (await repo.findUser(ctx.db, id)) as NonNullable<typeof current>;
};

/** The registration link of an imported user, mailed once the import commits. */
const registrationMail = (
  ctx: AppContext,
  user: { id: number; email: string; fullname: string; username: string },
  token: string,
) => ({
  to: user.email,
  subject: 'Your Media Cloud user',
  text: [
    `Hello ${user.fullname},`,
    '',
    `A user named ${user.username} has been created for you. To set your password and complete the registration, open:`,
    passwordLink(ctx.config.publicUrl, user.id, token, 'registration'),
    '',
    `The link works once and expires in ${REGISTRATION_TOKEN_DAYS} days.`,
  ].join('\n'),
});

/**
 * Batch creation (the site page's CSV import): every row is checked and answered; the rows that pass are
 * created together in one transaction, which also puts their registration mails in the outbox.
 */
export const createUsers = async (options: {
  ctx: AppContext;
  actor: Actor;
  siteId: number;
  dryRun: boolean;
  rows: UserImportRow[];
}): Promise<UserImportResult[]> => {
  const { ctx, actor } = options;
  await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: options.siteId });
  const decide = async (db: DbOrTx) => {
    const wantedNames = options.rows.map((row) => row.username?.trim() || usernameFromEmail(row.email));
    const taken = await repo.findTakenIdentifiers(db, [
      ...options.rows.map((row) => row.email),
      ...wantedNames,
    ]);
    // Each row's user name and email must name no user yet, neither in the cloud nor earlier in the batch.
    const used = new Set<string>();
    const isTaken = async (identifier: string) => {
      const key = repo.identifierKey(identifier);
      if (taken.has(key) || used.has(key)) return true;
      // A numbered name made below was not looked up with the others.
      return (
        !wantedNames.some((name) => repo.identifierKey(name) === key) &&
        (await repo.findTakenIdentifiers(db, [key])).size > 0
      );
    };
    const seenEmails = new Set<string>();
    const answers: UserImportResult[] = [];
    for (const [index, row] of options.rows.entries()) {
      const email = row.email.trim();
      const answer = {
        fullname: row.fullname.trim(),
        company: row.company.trim(),
        email,
        username: '',
        success: false,
        message: '',
      };
      const refuse = (message: string) => answers.push({ ...answer, message });
      const problem = userImportRowProblem(row);
      if (problem) {
        refuse(problem);
        continue;
      }
      const emailKey = repo.identifierKey(email);
      if (seenEmails.has(emailKey)) {
        refuse(MSG_EMAIL_USED_IN_BATCH);
        continue;
      }
      seenEmails.add(emailKey);
      if (await isTaken(email)) {
        refuse(MSG_EMAIL_TAKEN);
        continue;
      }
      const wanted = wantedNames[index] as string;
      let username = wanted;
      if (row.username?.trim()) {
        if (await isTaken(username)) {
          refuse(MSG_USERNAME_TAKEN);
          continue;
        }
      } else {
        // A name made from the email gets a number when it is taken.
        for (let n = 2; await isTaken(username); n++) username = `${wanted}${n}`;
      }
      used.add(repo.identifierKey(username));
      used.add(emailKey);
      answers.push({
        ...answer,
        username,
        success: true,
        message: options.dryRun ? MSG_USER_WOULD_BE_CREATED : MSG_USER_CREATED,
      });
    }
    return answers;
  };
  if (options.dryRun) return decide(ctx.db);

  const { answers, created } = await ctx.db.transaction(async (tx) => {
    await repo.lockIdentifiers(tx);
    const answers = await decide(tx);
    const toCreate = answers.filter((answer) => answer.success);
    if (toCreate.length === 0) return { answers, created: [] };
    const rows = await repo.insertUsers(
      tx,
      toCreate.map((answer) => ({
        username: answer.username,
        fullname: answer.fullname,
        company: answer.company,
        email: answer.email,
        homeSiteId: options.siteId,
      })),
    );
    const mails = [];
    for (const row of rows)
      mails.push(registrationMail(ctx, row, await createPasswordToken(tx, row.id, 'registration')));
    await ctx.mail.enqueue(tx, mails);
    await emitUserEvent(
      ctx,
      tx,
      'user.created',
      rows.map((row) => row.id),
    );
    return { answers, created: rows };
  });
  if (created.length > 0)
    await ctx.publish(
      CHANNELS.users,
      created.map((row) => row.id),
    );
  return answers;
};
