import type { Edl } from '@media/contract';

/**
 * Frame arithmetic of the embedded player: the video element speaks seconds, clips speak frames at fps.
 */

/** The frame shown at a time; a hair of tolerance keeps a seek to frame n from reading n - 1. */
export const frameAt = (seconds: number, fps: number) => Math.max(0, Math.floor(seconds * fps + 1e-6));

/** The time to seek to so that a frame shows: its middle, clear of the rounding at either edge. */
export const timeOfFrame = (frame: number, fps: number) => (frame + 0.5) / fps;

export type Marks = { inFrame: number | null; outFrame: number | null };

/**
 * The in and out points a clip takes from the user's marks within [start, end): unmarked, the in point is
 * the first frame and the out point the end; marks given the wrong way round are swapped; a clip holds one
 * frame at least.
 */
export const clipRange = (marks: Marks, end: number, start = 0) => {
  const last = Math.max(start + 1, end);
  const within = (frame: number, low: number, high: number) => Math.min(Math.max(frame, low), high);
  let inFrame = within(marks.inFrame ?? start, start, last - 1);
  let outFrame = within(marks.outFrame ?? last, start, last);
  if (outFrame < inFrame) [inFrame, outFrame] = [outFrame, inFrame];
  if (outFrame === inFrame) {
    if (outFrame < last) outFrame += 1;
    else inFrame -= 1;
  }
  return { inFrame, outFrame, isSelection: marks.inFrame !== null || marks.outFrame !== null };
};

/** The clip's picture is the frame on screen, unless it lies outside the clip: then its first frame. */
export const imageFrameFor = (currentFrame: number, range: { inFrame: number; outFrame: number }) =>
  currentFrame >= range.inFrame && currentFrame < range.outFrame ? currentFrame : range.inFrame;

/** A clip of one media is an edl of one event. */
export const clipEdl = (mediaId: number, fps: number, range: { inFrame: number; outFrame: number }): Edl => ({
  fps,
  events: [{ mediaId, inFrame: range.inFrame, outFrame: range.outFrame }],
});

/** Timecode hh:mm:ss:ff of a frame, for the marks shown beside the buttons. */
export const timecode = (frame: number, fps: number) => {
  const whole = Math.max(1, Math.round(fps));
  const totalSeconds = Math.floor(frame / whole);
  const pad = (value: number) => String(value).padStart(2, '0');
  return [
    Math.floor(totalSeconds / 3600),
    Math.floor(totalSeconds / 60) % 60,
    totalSeconds % 60,
    frame % whole,
  ]
    .map(pad)
    .join(':');
};

/** The size a picture is drawn at for the clip's JPEG: the video's, at most this wide. */
export const THUMB_MAX_WIDTH = 640;
export const thumbSize = (videoWidth: number, videoHeight: number) => {
  if (videoWidth <= 0 || videoHeight <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, THUMB_MAX_WIDTH / videoWidth);
  return { width: Math.round(videoWidth * scale), height: Math.round(videoHeight * scale) };
};

type Piece = Edl['events'][number];

/** Frames an edl plays in all. */
export const edlLength = (events: readonly Piece[]) =>
  events.reduce((sum, event) => sum + event.outFrame - event.inFrame, 0);

/** Which piece of an edl plays at a time of the edl, and the media frame shown; past the end, its last. */
export const edlPosition = (events: readonly Piece[], fps: number, seconds: number) => {
  let remaining = frameAt(seconds, fps);
  for (const [index, event] of events.entries()) {
    const length = event.outFrame - event.inFrame;
    if (remaining < length) return { index, frame: event.inFrame + remaining };
    remaining -= length;
  }
  const index = Math.max(0, events.length - 1);
  return { index, frame: Math.max(0, (events[index]?.outFrame ?? 1) - 1) };
};
