import { describe, expect, it } from 'vitest';
import { reauthWays } from './reauth-ways.ts';

describe("the ways the Confirm it's you prompt offers", () => {
  const sso = 'Sign in with SSO';

  it('asks a password user signed in with the password for the password only', () => {
    expect(reauthWays({ hasPassword: true, signedInWith: 'password' }, sso)).toEqual({
      password: true,
      provider: false,
    });
  });

  it('offers the provider besides the password when the session came from the provider', () => {
    expect(reauthWays({ hasPassword: true, signedInWith: 'oidc' }, sso)).toEqual({
      password: true,
      provider: true,
    });
  });

  it('offers only the provider to a user who has no password', () => {
    expect(reauthWays({ hasPassword: false, signedInWith: 'oidc' }, sso)).toEqual({
      password: false,
      provider: true,
    });
    expect(reauthWays({ hasPassword: false, signedInWith: 'password' }, sso)).toEqual({
      password: false,
      provider: true,
    });
  });

  it('asks for the password when the provider is not set up, or while the user is not known yet', () => {
    expect(reauthWays({ hasPassword: false, signedInWith: 'oidc' }, null)).toEqual({
      password: true,
      provider: false,
    });
    expect(reauthWays(undefined, sso)).toEqual({ password: true, provider: false });
    expect(reauthWays(null, sso)).toEqual({ password: true, provider: false });
  });
});
