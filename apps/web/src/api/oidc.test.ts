import { OIDC_ERRORS } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { oidcErrorText, oidcLoginUrl, providerName, returnPathOf } from './oidc.ts';

describe('sign-in through the identity provider (web)', () => {
  it('builds the start address with the return path, the prompt and the invitation encoded', () => {
    expect(oidcLoginUrl()).toBe('/api/oidc/login');
    const url = new URL(
      oidcLoginUrl({ returnTo: '/accounts?page=2#top', prompt: 'login', invite: 'a&b=c' }),
      'http://x',
    );
    expect(url.pathname).toBe('/api/oidc/login');
    expect(url.hash).toBe('');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      returnTo: '/accounts?page=2#top',
      prompt: 'login',
      invite: 'a&b=c',
    });
  });

  it('comes back to this page, its query and its hash, without the provider error it shows', () => {
    expect(
      returnPathOf({
        pathname: '/users/user_settings/4/',
        search: '?oidcError=linkedElsewhere&tab=2',
        hash: '#linked-sign-in',
      }),
    ).toBe('/users/user_settings/4/?tab=2#linked-sign-in');
    expect(returnPathOf({ pathname: '/accounts', search: '?oidcError=failed', hash: '' })).toBe('/accounts');
  });

  it("says a known error code in words and ignores anything else (the object's own keys only)", () => {
    expect(oidcErrorText('linkedElsewhere')).toBe(OIDC_ERRORS.linkedElsewhere);
    expect(oidcErrorText('unknown')).toBe(OIDC_ERRORS.unknown);
    expect(oidcErrorText('toString')).toBeUndefined();
    expect(oidcErrorText('<b>')).toBeUndefined();
    expect(oidcErrorText(null)).toBeUndefined();
  });

  it("names the provider by its issuer's host", () => {
    expect(providerName('https://login.example.com/realms/news')).toBe('login.example.com');
    expect(providerName('http://127.0.0.1:4000')).toBe('127.0.0.1:4000');
    expect(providerName('not a url')).toBe('not a url');
  });
});
