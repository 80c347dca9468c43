import type { PlayerMediaInfo } from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  fittedPlayerSize,
  initialPlayerPosition,
  initialPlayerSize,
  PLAYER_TOP,
  readPlayerCommand,
  readPlayerEvent,
  readyCommands,
  sourceCommand,
  windowSize,
} from './player-window.ts';

const info: PlayerMediaInfo = {
  name: 'Interview',
  mediaId: 7,
  edl: null,
  type: 'media',
  duration: 10,
  proxyWidth: 640,
  proxyHeight: 360,
  accountName: 'acme',
  accountId: 3,
  exportEnabled: true,
};
const edl = { id: 12, fps: 25, events: [{ mediaId: 7, inFrame: 0, outFrame: 50 }] };
const origin = 'http://localhost:8080';
const frame = {} as MessageEventSource;

describe('the floating player (spec3 §4 Player)', () => {
  it('loads the media id, or else (an edl) the edl id', () => {
    expect(sourceCommand(info)).toEqual({ type: 'loadSource', mediaId: 7, fps: undefined });
    expect(sourceCommand({ ...info, mediaId: 0, type: 'edl', edl })).toEqual({
      type: 'loadSource',
      edlId: 12,
      edl,
      fps: 25,
    });
    expect(sourceCommand({ ...info, mediaId: 12, type: 'edl', edl })).toMatchObject({ edlId: 12, edl });
    expect(sourceCommand({ ...info, mediaId: 0 })).toBeNull();
    // A stream being recorded plays its live playlist.
    expect(sourceCommand({ ...info, type: 'lifestream' })).toEqual({
      type: 'loadSource',
      mediaId: 7,
      fps: undefined,
      live: true,
    });
  });

  it('plays when ready, seeking to the end first when start is end', () => {
    expect(readyCommands(undefined)).toEqual([{ type: 'play' }]);
    expect(readyCommands('end')).toEqual([{ type: 'seek', skipToEnd: true }, { type: 'play' }]);
    expect(readyCommands(12)).toEqual([{ type: 'seek', seconds: 12 }, { type: 'play' }]);
  });

  it('fits the window to the video plus its frame, within the page and never under 650x300', () => {
    const page = { width: 1600, height: 1000 };
    expect(fittedPlayerSize({ width: 1280, height: 720 }, page)).toEqual({ width: 1292, height: 766 });
    expect(fittedPlayerSize({ width: 320, height: 180 }, page)).toEqual({ width: 650, height: 300 });
    const small = fittedPlayerSize({ width: 1920, height: 1080 }, { width: 1000, height: 700 });
    expect(small.width).toBeLessThanOrEqual(1000 - 12 - 12);
    expect(small.height).toBeLessThanOrEqual(700 - PLAYER_TOP - 12);
    expect(fittedPlayerSize({ width: 0, height: 0 }, page)).toEqual({ width: 650, height: 300 });
    expect(initialPlayerSize({ proxyWidth: null, proxyHeight: null }, page)).toEqual({
      width: 650,
      height: 300,
    });
  });

  it('opens at the top right below the header, away from the folder tree, and shrinks to 320x200 when minimised', () => {
    const page = { width: 1600, height: 1000 };
    expect(PLAYER_TOP).toBe(56 + 12);
    expect(initialPlayerPosition({ width: 650, height: 300 }, page)).toEqual({
      x: page.width - 650 - 12,
      y: PLAYER_TOP,
    });
    // A window as wide as the page starts at the left offset, never off the page.
    expect(initialPlayerPosition({ width: page.width, height: 300 }, page).x).toBe(12);
    expect(windowSize({ width: 900, height: 500 }, true)).toEqual({ width: 320, height: 200 });
    expect(windowSize({ width: 900, height: 500 }, false)).toEqual({ width: 900, height: 500 });
  });
});

describe('player messages', () => {
  const ready = { type: 'jsplayerReady', duration: 10, videoWidth: 640, videoHeight: 360 };

  it('are read from the player frame of this origin only', () => {
    expect(readPlayerEvent({ data: ready, origin, source: frame }, frame, origin)).toEqual(ready);
    expect(
      readPlayerEvent({ data: ready, origin: 'http://evil.example', source: frame }, frame, origin),
    ).toBeNull();
    expect(
      readPlayerEvent({ data: ready, origin, source: {} as MessageEventSource }, frame, origin),
    ).toBeNull();
    expect(readPlayerEvent({ data: ready, origin, source: frame }, null, origin)).toBeNull();
    expect(readPlayerEvent({ data: { type: 'hello' }, origin, source: frame }, frame, origin)).toBeNull();
  });

  it('drive the embedded player only from this origin and only when they match the contract', () => {
    expect(readPlayerCommand({ data: { type: 'play' }, origin, source: null }, origin)).toEqual({
      type: 'play',
    });
    expect(
      readPlayerCommand({ data: { type: 'play' }, origin: 'http://evil.example', source: null }, origin),
    ).toBeNull();
    expect(readPlayerCommand({ data: ready, origin, source: null }, origin)).toBeNull();
  });
});
