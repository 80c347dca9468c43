import type { RightsSnapshot } from '@media/contract';
import { type AuthEpoch, GenerationCache } from './auth-epoch.ts';

/** Reads a user's rights (as acting in a role, when given); app.ts passes the access module's loadRights. */
export type LoadRights = (
  userId: number,
  acting: { accountId: number; roleId: number } | null,
) => Promise<RightsSnapshot>;

type RightsOf = {
  userId: number;
  acting: { accountId: number; roleId: number } | null;
  /** The auth generation the request's session was resolved in. */
  generation: number;
};

/**
 * A user's rights (as acting in a role, when the session does), read once per auth generation: a grant,
 * an access or a managing role changed anywhere moves the generation (AuthEpoch), and the next request reads
 * them again.
 */
export class RightsCache {
  private readonly cache: GenerationCache<string, Promise<RightsSnapshot>>;

  constructor(
    private readonly load: LoadRights,
    epoch: AuthEpoch,
  ) {
    this.cache = new GenerationCache(epoch);
  }

  of(session: RightsOf): Promise<RightsSnapshot> {
    const key = `${session.userId}:${session.acting?.accountId ?? ''}:${session.acting?.roleId ?? ''}`;
    return this.cache.through(key, session.generation, () => this.load(session.userId, session.acting));
  }
}
