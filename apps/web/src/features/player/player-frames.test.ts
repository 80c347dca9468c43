import { describe, expect, it } from 'vitest';
import {
  clipEdl,
  clipRange,
  edlLength,
  edlPosition,
  frameAt,
  imageFrameFor,
  thumbSize,
  timecode,
  timeOfFrame,
} from './player-frames.ts';

describe('player frames', () => {
  it('read the frame at a time and seek back to it', () => {
    expect(frameAt(0, 25)).toBe(0);
    expect(frameAt(2, 25)).toBe(50);
    expect(frameAt(2.039, 25)).toBe(50);
    for (const frame of [0, 1, 49, 50, 1234]) expect(frameAt(timeOfFrame(frame, 25), 25)).toBe(frame);
    expect(frameAt(-1, 25)).toBe(0);
  });

  it('take the whole media when nothing is marked', () => {
    expect(clipRange({ inFrame: null, outFrame: null }, 250)).toEqual({
      inFrame: 0,
      outFrame: 250,
      isSelection: false,
    });
  });

  it('take the marked in and out points, swapped when given the wrong way round', () => {
    expect(clipRange({ inFrame: 50, outFrame: 150 }, 250)).toEqual({
      inFrame: 50,
      outFrame: 150,
      isSelection: true,
    });
    expect(clipRange({ inFrame: 150, outFrame: 50 }, 250)).toEqual({
      inFrame: 50,
      outFrame: 150,
      isSelection: true,
    });
    expect(clipRange({ inFrame: 100, outFrame: null }, 250)).toEqual({
      inFrame: 100,
      outFrame: 250,
      isSelection: true,
    });
  });

  it('keep one frame at least, inside the media', () => {
    expect(clipRange({ inFrame: 80, outFrame: 80 }, 250)).toMatchObject({ inFrame: 80, outFrame: 81 });
    expect(clipRange({ inFrame: 250, outFrame: null }, 250)).toMatchObject({ inFrame: 249, outFrame: 250 });
    expect(clipRange({ inFrame: 900, outFrame: 990 }, 250)).toMatchObject({ inFrame: 249, outFrame: 250 });
    expect(clipRange({ inFrame: null, outFrame: null }, 0)).toMatchObject({ inFrame: 0, outFrame: 1 });
  });

  it('stay within the piece of an edl being played', () => {
    expect(clipRange({ inFrame: null, outFrame: null }, 300, 100)).toMatchObject({
      inFrame: 100,
      outFrame: 300,
    });
    expect(clipRange({ inFrame: 20, outFrame: 400 }, 300, 100)).toMatchObject({
      inFrame: 100,
      outFrame: 300,
    });
  });

  it('use the frame on screen as the picture unless it lies outside the clip', () => {
    expect(imageFrameFor(75, { inFrame: 50, outFrame: 150 })).toBe(75);
    expect(imageFrameFor(10, { inFrame: 50, outFrame: 150 })).toBe(50);
    expect(imageFrameFor(150, { inFrame: 50, outFrame: 150 })).toBe(50);
  });

  it('make an edl of one event', () => {
    expect(clipEdl(7, 25, { inFrame: 1, outFrame: 9 })).toEqual({
      fps: 25,
      events: [{ mediaId: 7, inFrame: 1, outFrame: 9 }],
    });
  });

  it('write timecodes and thumbnail sizes', () => {
    expect(timecode(0, 25)).toBe('00:00:00:00');
    expect(timecode(25 * 3661 + 7, 25)).toBe('01:01:01:07');
    expect(thumbSize(1920, 1080)).toEqual({ width: 640, height: 360 });
    expect(thumbSize(320, 180)).toEqual({ width: 320, height: 180 });
    expect(thumbSize(0, 0)).toEqual({ width: 0, height: 0 });
  });
});

describe('edl playing', () => {
  const events = [
    { mediaId: 1, inFrame: 100, outFrame: 150 },
    { mediaId: 2, inFrame: 0, outFrame: 25 },
  ];

  it('finds the piece and the media frame at a time of the edl', () => {
    expect(edlLength(events)).toBe(75);
    expect(edlPosition(events, 25, 0)).toEqual({ index: 0, frame: 100 });
    expect(edlPosition(events, 25, 1.96)).toEqual({ index: 0, frame: 149 });
    expect(edlPosition(events, 25, 2)).toEqual({ index: 1, frame: 0 });
    expect(edlPosition(events, 25, 99)).toEqual({ index: 1, frame: 24 });
  });
});
