import {
  ERROR_CODES,
  type LinkedIdentity,
  MSG_IDENTITY_LAST_WAY_IN,
  MSG_OIDC_IDENTITY_NOT_FOUND,
  MSG_OIDC_OFF,
  OIDC_LOGIN_TTL_MINUTES,
  OIDC_SCOPES,
  type OidcErrorCode,
  usernameFromEmail,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import type { Actor } from '../../platform/auth/actor.ts';
import { requireRecentSignIn } from '../../platform/auth/reauth.ts';
import type { AppContext } from '../../platform/context.ts';
import { sha256 } from '../../platform/crypto.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { acceptInvitationForIdentity } from '../invites/service.ts';
import { findTakenIdentifiers, identifierKey, lockIdentifiers } from '../users/repo.ts';
import { users } from '../users/tables.ts';
import { emitUserEvent } from '../webhooks/payloads.ts';
import type { OidcProvider } from './provider.ts';
import * as repo from './repo.ts';

const identityNotFound = () => new AppError(ERROR_CODES.notFound, MSG_OIDC_IDENTITY_NOT_FOUND);

export const requireProvider = (provider: OidcProvider | undefined) => {
  if (!provider) throw notFound(MSG_OIDC_OFF.replace(/\.$/, ''));
  return provider;
};

/**
 * Starts a sign-in at the provider: the state (kept in the browser's cookie and, hashed, here), the nonce
 * and the PKCE verifier; answers the provider's address and the state for the cookie.
 */
export const startLogin = async (options: {
  ctx: AppContext;
  provider: OidcProvider;
  returnTo?: string;
  linkUserId?: number;
  inviteToken?: string;
  prompt?: 'login';
}) => {
  const { ctx, provider } = options;
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  await repo.pruneLogins(ctx.db, new Date(Date.now() - OIDC_LOGIN_TTL_MINUTES * 60_000));
  await repo.insertLogin(ctx.db, {
    stateHash: sha256(state),
    nonce,
    codeVerifier,
    returnTo: options.returnTo ?? '/',
    linkUserId: options.linkUserId,
    inviteToken: options.inviteToken,
  });
  const url = client.buildAuthorizationUrl(provider.configuration, {
    redirect_uri: provider.redirectUri,
    scope: OIDC_SCOPES,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });
  return { url: url.toString(), state };
};

/** What a callback comes to: where the browser goes, and the user to sign in (none: only a redirect). */
export type CallbackOutcome =
  | { kind: 'signIn'; userId: number; returnTo: string }
  | { kind: 'linked'; userId: number; returnTo: string }
  | { kind: 'refused'; error: OidcErrorCode; returnTo?: string };

type Claims = { issuer: string; subject: string; email: string; name: string; preferredUsername: string };

/**
 * The provider's answer: the state must be the one this browser started (its cookie) and still waiting
 * here (used once); the code is exchanged with the PKCE verifier and the ID token's nonce checked. Then the
 * identity is found by (issuer, subject) only: an e-mail address never links by itself.
 */
export const finishLogin = async (options: {
  ctx: AppContext;
  provider: OidcProvider;
  callbackUrl: URL;
  cookieState: string | undefined;
}): Promise<CallbackOutcome> => {
  const { ctx, provider, callbackUrl } = options;
  const state = callbackUrl.searchParams.get('state');
  if (!state || !options.cookieState || state !== options.cookieState)
    return { kind: 'refused', error: 'failed' };
  const login = await repo.takeLogin(
    ctx.db,
    sha256(state),
    new Date(Date.now() - OIDC_LOGIN_TTL_MINUTES * 60_000),
  );
  if (!login) return { kind: 'refused', error: 'failed' };
  let claims: Claims;
  try {
    const tokens = await client.authorizationCodeGrant(provider.configuration, callbackUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return { kind: 'refused', error: 'failed' };
    claims = {
      issuer: idClaims.iss,
      subject: idClaims.sub,
      email: typeof idClaims.email === 'string' ? idClaims.email : '',
      name: typeof idClaims.name === 'string' ? idClaims.name : '',
      preferredUsername: typeof idClaims.preferred_username === 'string' ? idClaims.preferred_username : '',
    };
  } catch (error) {
    // The reason goes to the log (never the code or a token: openid-client's messages name neither).
    ctx.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'OIDC sign-in refused');
    return { kind: 'refused', error: 'failed', returnTo: login.linkUserId ? login.returnTo : undefined };
  }

  const identity = await repo.findIdentity(ctx.db, claims.issuer, claims.subject);
  if (login.linkUserId !== null) {
    if (identity && identity.userId !== login.linkUserId)
      return { kind: 'refused', error: 'linkedElsewhere', returnTo: login.returnTo };
    if (!identity) await repo.insertIdentity(ctx.db, { userId: login.linkUserId, ...identityOf(claims) });
    return { kind: 'linked', userId: login.linkUserId, returnTo: login.returnTo };
  }
  let userId = identity?.userId;
  // An invitation is accepted by the identity's user when it is linked already, else by the invited one.
  if (login.inviteToken) {
    const accepted = await acceptInvitationThroughProvider(ctx, login.inviteToken, claims, userId);
    userId ??= accepted;
  }
  if (userId === undefined && provider.settings.autoRegister) userId = await register(ctx, claims);
  if (userId === undefined) return { kind: 'refused', error: 'unknown' };
  const [user] = await ctx.db.select({ disabled: users.disabled }).from(users).where(eq(users.id, userId));
  if (!user || user.disabled) return { kind: 'refused', error: 'disabled' };
  if (identity) await repo.touchIdentity(ctx.db, identity.id);
  return { kind: 'signIn', userId, returnTo: login.returnTo };
};

const identityOf = (claims: Claims) => ({
  issuer: claims.issuer,
  subject: claims.subject,
  email: claims.email,
});

/**
 * OIDC_AUTO_REGISTER=1: a user made at first sign-in, with the claims' name and e-mail and no rights until
 * someone grants them. An e-mail (or name) another user has is not taken over: that sign-in is refused.
 */
const register = async (ctx: AppContext, claims: Claims) =>
  ctx.db.transaction(async (tx) => {
    await lockIdentifiers(tx);
    const email = claims.email.trim();
    if (email && (await findTakenIdentifiers(tx, [email])).has(identifierKey(email))) return undefined;
    const wanted = (claims.preferredUsername || (email ? usernameFromEmail(email) : '') || 'user').slice(
      0,
      60,
    );
    let username = wanted;
    for (let n = 2; (await findTakenIdentifiers(tx, [username])).size > 0; n++) username = `${wanted}${n}`;
    const [created] = await tx
      .insert(users)
      .values({ username, fullname: claims.name || username, email, emailverified: email !== '' })
      .returning({ id: users.id });
    if (!created) return undefined;
    await repo.insertIdentity(tx, { userId: created.id, ...identityOf(claims) });
    await emitUserEvent(ctx, tx, 'user.created', [created.id]);
    return created.id;
  });

const acceptInvitationThroughProvider = (
  ctx: AppContext,
  token: string,
  claims: Claims,
  linkedUserId: number | undefined,
) =>
  acceptInvitationForIdentity(ctx, token, {
    userId: linkedUserId,
    fullname: claims.name,
    link: (tx, userId) => repo.insertIdentity(tx, { userId, ...identityOf(claims) }),
  });

const presented = (row: Awaited<ReturnType<typeof repo.listIdentities>>[number]): LinkedIdentity => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  email: row.email,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** GET /api/me/identities: the signed-in user's linked sign-ins. */
export const listOwn = async (ctx: AppContext, actor: Actor) =>
  (await repo.listIdentities(ctx.db, actor.userId)).map(presented);

/** A change of linked identities: a person signed in recently (ASVS 7.5.1), never a token. */
const requirePersonRecentlySignedIn = (ctx: AppContext, actor: Actor) => {
  if (actor.apiToken) throw forbidden();
  requireRecentSignIn(actor, ctx.config);
};

/** POST /api/me/identities/link: starts linking the provider's identity to the signed-in user. */
export const startLink = (
  ctx: AppContext,
  provider: OidcProvider | undefined,
  actor: Actor,
  returnTo: string,
) => {
  requirePersonRecentlySignedIn(ctx, actor);
  return startLogin({
    ctx,
    provider: requireProvider(provider),
    returnTo,
    linkUserId: actor.userId,
    prompt: 'login',
  });
};

/** POST /api/me/identities/{id}/trash: unlinks one; never the last way in of a user without a password. */
export const unlink = async (ctx: AppContext, actor: Actor, id: number) => {
  requirePersonRecentlySignedIn(ctx, actor);
  const identities = await repo.listIdentities(ctx.db, actor.userId);
  if (!identities.some((identity) => identity.id === id)) throw identityNotFound();
  const [user] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!user?.passwordHash && identities.length === 1) throw badRequest(MSG_IDENTITY_LAST_WAY_IN);
  if (!(await repo.deleteIdentity(ctx.db, actor.userId, id))) throw identityNotFound();
};

/** The provider's end-session address after a sign-out, when it has one. */
export const endSessionUrl = (provider: OidcProvider, publicUrl: string) => {
  if (!provider.configuration.serverMetadata().end_session_endpoint) return undefined;
  return client
    .buildEndSessionUrl(provider.configuration, {
      client_id: provider.settings.clientId,
      post_logout_redirect_uri: new URL('/login', publicUrl).toString(),
    })
    .toString();
};
