import type { ApiTokenScope, RightsSnapshot } from '@media/contract';
import type { RightsCache } from './rights-cache.ts';
import type { ResolvedSession } from './sessions.ts';

/** The signed-in user a request acts for; services take it and check rights against it. */
export type Actor = {
  userId: number;
  username: string;
  /** The session's key; an API token's request has none and a key of its own (`t:` and the token's hash). */
  sessionIdHash: string;
  sessionPublicId: string;
  /**
   * The auth generation the session was resolved in (AuthEpoch): an answer read only from the session, the
   * rights and the user's own row may be cached in it.
   */
  generation: number;
  /** Loaded once per request, on first use. */
  rights: () => Promise<RightsSnapshot>;
  /** When the user last proved who they are in this session (ms); an API token's request has none. */
  authenticatedAt?: number;
  /** How the session was signed in; an API token's request has none. */
  signedInWith?: 'password' | 'oidc';
  /** The API token the request came with (Authorization: Bearer), when not a session. */
  apiToken?: { id: number; scope: ApiTokenScope };
  /** The role of an account the session acts as (the edit-as-role choice), when not the user's own. */
  actingRoleId?: number;
};

type SignedInSession = Extract<ResolvedSession, { ok: true }>;

/** The actor of a request whose session was resolved; a class, so a request makes no closures for it. */
export class SessionActor implements Actor {
  readonly userId: number;
  readonly username: string;
  readonly sessionIdHash: string;
  readonly sessionPublicId: string;
  readonly generation: number;
  readonly authenticatedAt: number;
  readonly signedInWith: 'password' | 'oidc';
  readonly actingRoleId: number | undefined;
  private loaded: Promise<RightsSnapshot> | undefined;

  constructor(
    private readonly session: SignedInSession,
    private readonly rightsCache: RightsCache,
  ) {
    this.userId = session.userId;
    this.username = session.username;
    this.sessionIdHash = session.idHash;
    this.sessionPublicId = session.publicId;
    this.generation = session.generation;
    this.authenticatedAt = session.authenticatedAt;
    this.signedInWith = session.signedInWith;
    this.actingRoleId = session.acting?.roleId;
  }

  rights() {
    this.loaded ??= this.rightsCache.of(this.session);
    return this.loaded;
  }
}

/**
 * The actor of a request with an API token: its user, with the rights the user has now (not when the token
 * was made), never acting in another role.
 */
export class TokenActor implements Actor {
  readonly userId: number;
  readonly username: string;
  readonly sessionIdHash: string;
  readonly sessionPublicId: string;
  readonly apiToken: { id: number; scope: ApiTokenScope };
  private loaded: Promise<RightsSnapshot> | undefined;

  constructor(
    token: { id: number; tokenHash: string; userId: number; username: string; scope: ApiTokenScope },
    readonly generation: number,
    private readonly rightsCache: RightsCache,
  ) {
    this.userId = token.userId;
    this.username = token.username;
    this.sessionIdHash = `t:${token.tokenHash}`;
    this.sessionPublicId = `token-${token.id}`;
    this.apiToken = { id: token.id, scope: token.scope };
  }

  rights() {
    this.loaded ??= this.rightsCache.of({ userId: this.userId, acting: null, generation: this.generation });
    return this.loaded;
  }
}
