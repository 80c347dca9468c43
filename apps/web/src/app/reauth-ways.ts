import type { Me } from '@media/contract';

/**
 * How the "Confirm it's you" prompt lets a person sign in again: with the password, and through the identity
 * provider (its button text when it is set up) for a user who has no password or whose session came from the
 * provider. A user with neither way known (still loading) is asked for the password, as before.
 */
export const reauthWays = (
  me: Pick<Me, 'hasPassword' | 'signedInWith'> | null | undefined,
  providerButtonText: string | null,
) => {
  const provider = providerButtonText !== null && !!me && (!me.hasPassword || me.signedInWith === 'oidc');
  return { password: !provider || !!me?.hasPassword, provider };
};
