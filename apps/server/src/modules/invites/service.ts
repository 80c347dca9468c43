import {
  CHANNELS,
  INVITE_DAYS,
  MSG_INVITE_ACCEPTED,
  MSG_INVITE_INVALID,
  MSG_USER_ALREADY_LINKED,
  usernameFromEmail,
} from '@media/contract';
import { sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import type { AppContext } from '../../platform/context.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { upsertAccess } from '../access/repo.ts';
import { checkGrantableRole, requireAccountManagement } from '../access/service.ts';
import { accounts } from '../organisation/tables.ts';
import { enforceRules } from '../passwords/service.ts';
import { findTakenIdentifiers, lockIdentifiers } from '../users/repo.ts';
import { requireFreeIdentifiers } from '../users/service.ts';
import { users } from '../users/tables.ts';
import { emitUserEvent } from '../webhooks/payloads.ts';
import * as repo from './repo.ts';

export const listInvites = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  offset: number;
  limit: number;
}) => {
  await requireAccountManagement(options.ctx, options.actor, options.accountId);
  const page = await repo.findInvitesPage(options.ctx.db, options.accountId, options.offset, options.limit);
  return {
    rows: page.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total: page.total,
  };
};

export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invite/${token}`;

/**
 * Invites people by email in one transaction (an email already invited gets a fresh link and role), which
 * also puts in the outbox each one's mail with a link to accept, or to register when they have no user yet.
 */
export const createInvites = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  invites: { email: string; roleId: number; username?: string }[];
}) => {
  const { ctx, actor, accountId } = options;
  const { ancestry, rights } = await requireAccountManagement(ctx, actor, accountId);
  for (const roleId of new Set(options.invites.map((i) => i.roleId)))
    await checkGrantableRole(ctx.db, rights, ancestry, roleId);
  const emails = options.invites.map((i) => i.email.toLowerCase());
  const linked = await repo.linkedEmails(ctx.db, accountId, emails);
  const already = options.invites.filter((i) => linked.has(i.email.toLowerCase()));
  if (already.length) throw conflict(`${MSG_USER_ALREADY_LINKED}: ${already.map((i) => i.email).join(', ')}`);
  const [account] = await ctx.db
    .select({ name: accounts.name })
    .from(accounts)
    .where(sql`${accounts.id} = ${accountId}`);
  const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
  const sent = await ctx.db.transaction(async (tx) => {
    const out: { id: number; email: string; token: string }[] = [];
    for (const invite of options.invites) {
      const token = randomToken(32);
      const id = await repo.replaceInvite(tx, {
        accountId,
        email: invite.email,
        roleId: invite.roleId,
        username: invite.username || null,
        tokenHash: sha256(token),
        invitedBy: actor.userId,
        expiresAt,
      });
      out.push({ id, email: invite.email, token });
    }
    await ctx.mail.enqueue(
      tx,
      out.map((invite) => ({
        to: invite.email,
        subject: `Invitation to the ${account?.name ?? ''} account`,
        text: [
          'Hello,',
          '',
          `${actor.username} has invited you to the ${account?.name ?? ''} account on Media Cloud. To accept, open:`,
          invitationLink(ctx.config.publicUrl, invite.token),
          '',
          `The link expires in ${INVITE_DAYS} days.`,
        ].join('\n'),
      })),
    );
    return out;
  });
  await ctx.publish(
    CHANNELS.invites(accountId),
    sent.map((s) => s.id),
  );
  const page = await repo.findInvitesPage(ctx.db, accountId, 0, 10_000);
  const ids = new Set(sent.map((s) => s.id));
  return page.rows
    .filter((row) => ids.has(row.id))
    .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
};

export const updateInvite = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  inviteId: number;
  roleId: number;
}) => {
  const { ctx, actor, accountId, inviteId } = options;
  const { ancestry, rights } = await requireAccountManagement(ctx, actor, accountId);
  if (!(await repo.findInvite(ctx.db, accountId, inviteId))) throw notFound('Invite');
  await checkGrantableRole(ctx.db, rights, ancestry, options.roleId);
  await repo.updateInviteRole(ctx.db, inviteId, options.roleId);
  await ctx.publish(CHANNELS.invites(accountId), [inviteId]);
  const row = await repo.findInvite(ctx.db, accountId, inviteId);
  return {
    ...(row as NonNullable<typeof row>),
    createdAt: (row as NonNullable<typeof row>).createdAt.toISOString(),
  };
};

export const trashInvite = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  inviteId: number;
}) => {
  const { ctx, actor, accountId, inviteId } = options;
  await requireAccountManagement(ctx, actor, accountId);
  if (!(await repo.findInvite(ctx.db, accountId, inviteId))) throw notFound('Invite');
  await repo.deleteInvite(ctx.db, inviteId);
  await ctx.publish(CHANNELS.invites(accountId), [inviteId]);
  return { ok: true as const };
};

const findInvitationOr404 = async (ctx: AppContext, token: string) => {
  const invitation = await repo.findInvitation(ctx.db, sha256(token));
  if (!invitation) throw new AppError('not_found', MSG_INVITE_INVALID, { status: 404 });
  return invitation;
};

export const getInvitation = async (options: { ctx: AppContext; token: string }) => {
  const invitation = await findInvitationOr404(options.ctx, options.token);
  return {
    email: invitation.email,
    accountName: invitation.accountName,
    roleName: invitation.roleName,
    registered: (await repo.findUserByEmail(options.ctx.db, invitation.email)) !== undefined,
  };
};

/** Accepting proves the mailbox: an existing user gets the access; a new one registers with a password. */
export const acceptInvitation = async (options: {
  ctx: AppContext;
  token: string;
  registration?: { fullname: string; username?: string; newPassword: string };
}) => {
  const { ctx } = options;
  const invitation = await findInvitationOr404(ctx, options.token);
  const existing = await repo.findUserByEmail(ctx.db, invitation.email);
  const registration = options.registration;
  if (!existing && !registration)
    throw badRequest('Please register: full name and password are required', {
      fullname: 'This field is required',
    });
  let passwordHash: string | undefined;
  let username = '';
  if (!existing && registration) {
    username = registration.username || invitation.username || usernameFromEmail(invitation.email);
    // Checked before the slow hashing, and again below while no one else can take them.
    await ctx.db.transaction((tx) => requireFreeIdentifiers(tx, { username, email: invitation.email }));
    await enforceRules(ctx.db, registration.newPassword, username);
    passwordHash = await hashPassword(registration.newPassword);
  }
  const userId = await ctx.db.transaction(async (tx) => {
    let id = existing?.id;
    if (id === undefined) {
      await requireFreeIdentifiers(tx, { username, email: invitation.email });
      const [created] = await tx
        .insert(users)
        .values({
          username,
          fullname: registration?.fullname ?? '',
          email: invitation.email,
          emailverified: true,
          passwordHash,
          passwordChangedAt: new Date(),
        })
        .returning({ id: users.id });
      id = created?.id as number;
      await emitUserEvent(ctx, tx, 'user.created', [id], invitation.accountId);
    } else {
      await tx.update(users).set({ emailverified: true }).where(sql`${users.id} = ${id}`);
    }
    await upsertAccess(tx, { accountId: invitation.accountId, userId: id, roleId: invitation.roleId });
    await repo.deleteInvite(tx, invitation.id);
    return id;
  });
  await ctx.publish(CHANNELS.invites(invitation.accountId), [invitation.id]);
  await ctx.publish(CHANNELS.userAccess(invitation.accountId), [userId]);
  return { message: MSG_INVITE_ACCEPTED };
};

/**
 * An invitation accepted through the identity provider (modules/oidc): the invited e-mail's user, or a new
 * user without a password, gets the invitation's access, and `link` links the provider's identity to them in
 * the same transaction. The invitation (sent to that address) is what proves the person; the provider's
 * e-mail claim is never compared; an identity linked already accepts it for its own user. Answers the user,
 * or undefined for an unknown or expired invitation.
 */
export const acceptInvitationForIdentity = async (
  ctx: AppContext,
  token: string,
  person: {
    /** The user the identity is linked to already: they accept it (nothing new is linked). */
    userId?: number;
    fullname: string;
    link: (tx: DbOrTx, userId: number) => Promise<void>;
  },
) => {
  const invitation = await findInvitationOr404(ctx, token).catch(() => undefined);
  if (!invitation) return undefined;
  const userId = await ctx.db.transaction(async (tx) => {
    if (person.userId !== undefined) {
      await upsertAccess(tx, {
        accountId: invitation.accountId,
        userId: person.userId,
        roleId: invitation.roleId,
      });
      await repo.deleteInvite(tx, invitation.id);
      return person.userId;
    }
    let id = (await repo.findUserByEmail(tx, invitation.email))?.id;
    if (id === undefined) {
      const wanted = invitation.username || usernameFromEmail(invitation.email);
      let username = wanted;
      await lockIdentifiers(tx);
      for (let n = 2; (await findTakenIdentifiers(tx, [username])).size > 0; n++) username = `${wanted}${n}`;
      await requireFreeIdentifiers(tx, { username, email: invitation.email });
      const [created] = await tx
        .insert(users)
        .values({ username, fullname: person.fullname, email: invitation.email, emailverified: true })
        .returning({ id: users.id });
      id = created?.id as number;
      await emitUserEvent(ctx, tx, 'user.created', [id], invitation.accountId);
    } else {
      await tx.update(users).set({ emailverified: true }).where(sql`${users.id} = ${id}`);
    }
    await person.link(tx, id);
    await upsertAccess(tx, { accountId: invitation.accountId, userId: id, roleId: invitation.roleId });
    await repo.deleteInvite(tx, invitation.id);
    return id;
  });
  await ctx.publish(CHANNELS.invites(invitation.accountId), [invitation.id]);
  await ctx.publish(CHANNELS.userAccess(invitation.accountId), [userId]);
  return userId;
};
