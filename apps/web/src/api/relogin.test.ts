import { MSG_NOT_SIGNED_IN } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { createReloginCoordinator } from './relogin.ts';

describe('re-login coordinator', () => {
  it('opens once for many 401s and lets every waiting call go on after the sign-in', async () => {
    const relogin = createReloginCoordinator();
    const seen: boolean[] = [];
    relogin.subscribe((state) => seen.push(state.open));
    const first = relogin.request();
    const second = relogin.request();
    expect(relogin.getState().open).toBe(true);
    relogin.succeeded();
    await Promise.all([first, second]);
    expect(seen).toEqual([true, false]);
  });

  it('keeps the plain "not signed in" out of the dialog', () => {
    const relogin = createReloginCoordinator();
    void relogin.request(MSG_NOT_SIGNED_IN);
    expect(relogin.getState()).toEqual({ open: true, message: undefined });
  });

  it('shows a disconnect reason that arrives after a plain 401 of a call that raced it', () => {
    const relogin = createReloginCoordinator();
    void relogin.request(MSG_NOT_SIGNED_IN);
    void relogin.request('The desk closes for maintenance.');
    expect(relogin.getState().message).toBe('The desk closes for maintenance.');
    void relogin.request(MSG_NOT_SIGNED_IN);
    void relogin.request('Another reason');
    expect(relogin.getState().message).toBe('The desk closes for maintenance.');
  });
});
