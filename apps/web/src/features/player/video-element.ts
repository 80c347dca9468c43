import { thumbSize } from './player-frames.ts';

/** What the embedded player asks of its <video> element. */

/** Seeks and resolves once the frame is on screen (or at once when already there). */
export const seekTo = (video: HTMLVideoElement, seconds: number) =>
  new Promise<void>((resolve) => {
    if (Math.abs(video.currentTime - seconds) < 1e-3 && !video.seeking) {
      resolve();
      return;
    }
    video.addEventListener('seeked', () => resolve(), { once: true });
    video.currentTime = seconds;
  });

/** Starts playing; a browser that refuses sound without a gesture still plays, muted. */
export const playVideo = async (video: HTMLVideoElement) => {
  try {
    await video.play();
  } catch {
    video.muted = true;
    await video.play().catch(() => undefined);
  }
};

const JPEG_QUALITY = 0.85;
/** Media without a picture still gives a clip a (black) thumbnail. */
const BLANK = { width: 160, height: 90 };

/** The frame on screen as a JPEG data URL, at most 640 pixels wide. */
export const frameJpegDataUrl = (video: HTMLVideoElement) => {
  const measured = thumbSize(video.videoWidth, video.videoHeight);
  const size = measured.width > 0 ? measured : BLANK;
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (context) {
    context.fillStyle = '#000';
    context.fillRect(0, 0, size.width, size.height);
    if (measured.width > 0) context.drawImage(video, 0, 0, size.width, size.height);
  }
  return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
};
