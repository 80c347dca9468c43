import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeCreateSchema } from '../nodes/nodes.ts';
import {
  CLIP_NAMING_DIALOG_WIDTH,
  clipSavePayload,
  embeddedPlayerPath,
  PLAYER_DELAY_MS,
  PLAYER_MESSAGES,
  PLAYER_MIN_SIZE,
  PLAYER_MINIMISED_SIZE,
  PLAYER_WINDOW_OFFSET_X,
  PLAYER_WINDOW_OFFSET_Y,
  playerCommandSchema,
  playerEventSchema,
} from './player.ts';

const jpeg = `data:image/jpeg;base64,${Buffer.from('not really a jpeg').toString('base64')}`;
const clipping = {
  type: 'clipping',
  inFrame: 50,
  outFrame: 150,
  imageFrame: 75,
  fps: 25,
  imageJpegDataURL: jpeg,
  length: 100,
  videoWidth: 640,
  isSelection: true,
  edl: { fps: 25, events: [{ mediaId: 7, inFrame: 50, outFrame: 150 }] },
};

describe('player constants and texts (spec3 §2, §8, §9)', () => {
  it('are the spec’s', () => {
    expect(PLAYER_DELAY_MS).toBe(1000);
    expect([PLAYER_WINDOW_OFFSET_X, PLAYER_WINDOW_OFFSET_Y]).toEqual([12, 46]);
    expect(PLAYER_MIN_SIZE).toEqual({ width: 650, height: 300 });
    expect(PLAYER_MINIMISED_SIZE).toEqual({ width: 320, height: 200 });
    expect(CLIP_NAMING_DIALOG_WIDTH).toBe(250);
    expect(PLAYER_MESSAGES.openFailed('gone')).toBe('An error occurred opening the Player: gone');
    expect(PLAYER_MESSAGES.saveToLocation('/acme/News')).toBe('Save to current location: /acme/News');
    expect(PLAYER_MESSAGES.clipTitle('Interview')).toBe('Interview (copy)');
    expect([PLAYER_MESSAGES.clipButton, PLAYER_MESSAGES.cancelButton]).toEqual(['Clip', 'Cancel']);
  });

  it('build the embedded video player address', () => {
    expect(embeddedPlayerPath(3, 'Acme News')).toBe('/accounts/3/reactvideoplayer?accountName=Acme%20News');
  });
});

describe('messages to the player (spec3 §7)', () => {
  it('accept each command the spec names', () => {
    for (const command of [
      { type: 'requestInOutPoints' },
      { type: 'seek', seconds: 12.5 },
      { type: 'seek', skipToEnd: true },
      { type: 'stop' },
      { type: 'play' },
      { type: 'controlsMode', mode: 'editor' },
      { type: 'loadSource', mediaId: 4 },
      { type: 'loadSource', edlId: 9, edl: { fps: 25, events: [{ mediaId: 4, inFrame: 0, outFrame: 10 }] } },
      { type: 'windowSize', width: 640, height: 360 },
    ])
      expect(playerCommandSchema.safeParse(command).success, JSON.stringify(command)).toBe(true);
  });

  it('refuse a seek naming both or neither, a source naming nothing, and unknown messages', () => {
    for (const command of [
      { type: 'seek' },
      { type: 'seek', seconds: 1, skipToEnd: true },
      { type: 'loadSource' },
      { type: 'loadSource', edlId: 9 },
      { type: 'controlsMode', mode: 'director' },
      { type: 'play', extra: 1 },
      { type: 'jsplayerReady', duration: 1, videoWidth: 1, videoHeight: 1 },
      'play',
      null,
    ])
      expect(playerCommandSchema.safeParse(command).success, JSON.stringify(command)).toBe(false);
  });
});

describe('messages from the player (spec3 §7)', () => {
  it('accept ready, error and clipping', () => {
    expect(
      playerEventSchema.safeParse({ type: 'jsplayerReady', duration: 10, videoWidth: 640, videoHeight: 360 })
        .success,
    ).toBe(true);
    expect(playerEventSchema.safeParse({ type: 'errorLoadingMedia', reason: 'Not found' }).success).toBe(
      true,
    );
    expect(playerEventSchema.safeParse(clipping).success).toBe(true);
  });

  it('refuse a clipping whose image is not a JPEG data URL', () => {
    expect(
      playerEventSchema.safeParse({ ...clipping, imageJpegDataURL: 'data:image/png;base64,AAAA' }).success,
    ).toBe(false);
  });
});

describe('clip save payload (spec3 §3)', () => {
  it('is type edl with the name, the base64 of the JPEG, the thumb point in seconds and the edl', () => {
    const payload = clipSavePayload({ ...clipping, name: 'Interview (copy)' }, '/acme/News');
    expect(payload).toEqual({
      parentPath: '/acme/News',
      type: 'edl',
      name: 'Interview (copy)',
      thumb: { type: 'jpeg', data: Buffer.from('not really a jpeg').toString('base64') },
      thumbPoint: 1,
      edl: clipping.edl,
    });
    expect(nodeCreateSchema.safeParse(payload).success).toBe(true);
  });

  it('puts the thumb point at (imageFrame - inFrame) / fps for any marks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(24, 25, 29.97, 30, 50, 60),
        (inFrame, offset, fps) => {
          const payload = clipSavePayload(
            { ...clipping, name: 'x', inFrame, imageFrame: inFrame + offset, fps },
            '/acme',
          );
          expect(payload.thumbPoint).toBeCloseTo(offset / fps, 9);
        },
      ),
    );
  });
});
