import type { RightsSnapshot } from '@media/contract';

/** The signed-in user a request acts for; services take it and check rights against it. */
export type Actor = {
  userId: number;
  username: string;
  sessionIdHash: string;
  sessionPublicId: string;
  /** Loaded once per request, on first use. */
  rights: () => Promise<RightsSnapshot>;
};
