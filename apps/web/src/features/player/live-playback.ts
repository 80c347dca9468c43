import { PLAYER_MESSAGES } from '@media/contract';

/** The HLS playlist of a stream being recorded (`lifestream` media), served while it records. */
export const livePlaylistUrl = (mediaId: number) => `/api/media/${mediaId}/live.m3u8`;

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** How hls.js loads a playlist: a timeout retried at once, an error (a 404) only `errorRetries` times. */
const loadPolicy = (errorRetries: number) => ({
  maxTimeToFirstByteMs: 10_000,
  maxLoadTimeMs: 20_000,
  timeoutRetry: { maxNumRetry: 2, retryDelayMs: 0, maxRetryDelayMs: 0 },
  errorRetry: { maxNumRetry: errorRetries, retryDelayMs: 1000, maxRetryDelayMs: 2000 },
});

/**
 * Plays a live HLS playlist in a <video> and answers how to stop. Through hls.js where the browser has Media
 * Source Extensions (loaded only when a stream is played, so neither the shell nor a file's player carries
 * it), else natively (Safari). `onFatal` hears when the stream cannot go on: the playlist is gone (the
 * recording has landed) or the browser cannot play it.
 */
export const attachLivePlaylist = async (
  video: HTMLVideoElement,
  url: string,
  onFatal: (reason: string) => void,
): Promise<() => void> => {
  const { default: Hls } = await import('hls.js');
  if (Hls.isSupported()) {
    const hls = new Hls({
      // The page's Content-Security-Policy has no worker-src for blob: workers.
      enableWorker: false,
      // A finished recording's playlist answers 404: say so soon rather than retry for long.
      manifestLoadPolicy: { default: loadPolicy(1) },
      playlistLoadPolicy: { default: loadPolicy(2) },
    });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      hls.destroy();
      onFatal(data.response?.code === 404 ? PLAYER_MESSAGES.mediaLoadFailed : data.details);
    });
    hls.loadSource(url);
    hls.attachMedia(video);
    return () => hls.destroy();
  }
  if (video.canPlayType(HLS_TYPE)) {
    const onError = () => onFatal(PLAYER_MESSAGES.mediaLoadFailed);
    video.addEventListener('error', onError);
    video.src = url;
    return () => {
      video.removeEventListener('error', onError);
      video.removeAttribute('src');
      video.load();
    };
  }
  onFatal(PLAYER_MESSAGES.liveUnsupported);
  return () => undefined;
};
