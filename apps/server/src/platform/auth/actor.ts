import type { RightsSnapshot } from '@media/contract';

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
