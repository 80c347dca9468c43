import { describe, expect, it } from 'vitest';
import { closePlayer, openPlayer, playerState } from './player-store.ts';

const request = { mediaId: 7, name: 'Interview', path: '/acme/News', accountId: 3, accountName: 'acme' };

describe('the player store', () => {
  it('holds one player: opening another replaces it with a new key, closing empties it', () => {
    openPlayer(request);
    const first = playerState();
    expect(first).toMatchObject(request);
    openPlayer({ ...request, mediaId: 8, start: 'end' });
    const second = playerState();
    expect(second).toMatchObject({ mediaId: 8, start: 'end' });
    expect(second?.key).not.toBe(first?.key);
    closePlayer();
    expect(playerState()).toBeNull();
  });
});
