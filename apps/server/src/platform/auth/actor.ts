import type { RightsSnapshot } from '@media/contract';
import type { RightsCache } from './rights-cache.ts';
import type { ResolvedSession } from './sessions.ts';

/** The signed-in user a request acts for; services take it and check rights against it. */
export type Actor = {
  userId: number;
  username: string;
  sessionIdHash: string;
  sessionPublicId: string;
  /**
   * The auth generation the session was resolved in (AuthEpoch): an answer read only from the session, the
   * rights and the user's own row may be cached in it.
   */
  generation: number;
  /** Loaded once per request, on first use. */
  rights: () => Promise<RightsSnapshot>;
};

type SignedInSession = Extract<ResolvedSession, { ok: true }>;

/** The actor of a request whose session was resolved; a class, so a request makes no closures for it. */
export class SessionActor implements Actor {
  readonly userId: number;
  readonly username: string;
  readonly sessionIdHash: string;
  readonly sessionPublicId: string;
  readonly generation: number;
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
  }

  rights() {
    this.loaded ??= this.rightsCache.of(this.session);
    return this.loaded;
  }
}
