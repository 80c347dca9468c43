import { describe, expect, it } from 'vitest';
import { createReauthCoordinator } from './reauth.ts';

describe('reauth coordinator', () => {
  it('opens one prompt for many refused changes and lets each go again once the password is entered', async () => {
    const reauth = createReauthCoordinator();
    const seen: boolean[] = [];
    reauth.subscribe((state) => seen.push(state.open));
    const first = reauth.request(reauth.confirmations());
    const second = reauth.request(reauth.confirmations());
    expect(reauth.getState().open).toBe(true);
    reauth.confirmed();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(seen).toEqual([true, false]);
    expect(reauth.confirmations()).toBe(1);
  });

  it('answers false to every waiting change when cancelled, and counts no confirmation', async () => {
    const reauth = createReauthCoordinator();
    const first = reauth.request(0);
    const second = reauth.request(0);
    reauth.cancelled();
    expect(await Promise.all([first, second])).toEqual([false, false]);
    expect(reauth.getState().open).toBe(false);
    expect(reauth.confirmations()).toBe(0);
  });

  it('opens a new prompt for a change refused after the last one closed', async () => {
    const reauth = createReauthCoordinator();
    const first = reauth.request(0);
    reauth.cancelled();
    expect(await first).toBe(false);
    const again = reauth.request(0);
    expect(reauth.getState().open).toBe(true);
    reauth.confirmed();
    expect(await again).toBe(true);
  });

  it('lets a change sent before a confirmation go again without a prompt', async () => {
    const reauth = createReauthCoordinator();
    const sentAt = reauth.confirmations();
    const waiting = reauth.request(sentAt);
    reauth.confirmed();
    await waiting;
    // Sent before that confirmation, refused after it: the sign-in is fresh now.
    expect(await reauth.request(sentAt)).toBe(true);
    expect(reauth.getState().open).toBe(false);
  });
});
