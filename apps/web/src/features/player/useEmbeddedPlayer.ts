import {
  type ControlsMode,
  DEFAULT_PLAYER_FPS,
  type LoadSource,
  PLAYER_MESSAGES,
  type PlayerCommand,
  type PlayerEvent,
} from '@media/contract';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { attachLivePlaylist, livePlaylistUrl } from './live-playback.ts';
import {
  clipEdl,
  clipRange,
  edlLength,
  edlPosition,
  frameAt,
  imageFrameFor,
  type Marks,
  timeOfFrame,
} from './player-frames.ts';
import { contentAnswers, mediaContentUrl, mediaErrorReason } from './player-queries.ts';
import { readPlayerCommand } from './player-window.ts';
import { frameJpegDataUrl, playVideo, seekTo } from './video-element.ts';

/** One piece the player plays: a whole media (outFrame null), or an edl event. */
type Piece = { mediaId: number; inFrame: number; outFrame: number | null };

const piecesOf = (source: LoadSource | null): Piece[] =>
  source?.edl
    ? source.edl.events
    : source?.mediaId
      ? [{ mediaId: source.mediaId, inFrame: 0, outFrame: null }]
      : [];

type Target = { window: Window; origin: string };

/**
 * The embedded player's state and its answers to the parent's messages (spec3 §7): it plays what
 * loadSource names, tells the parent when it is ready or cannot load, and answers requestInOutPoints with
 * a clipping of the marks the user made.
 */
export const useEmbeddedPlayer = (
  video: RefObject<HTMLVideoElement | null>,
  accountId: number | undefined,
) => {
  const [source, setSource] = useState<LoadSource | null>(null);
  const [index, setIndex] = useState(0);
  const [mode, setMode] = useState<ControlsMode>('viewer');
  const [marks, setMarks] = useState<Marks>({ inFrame: null, outFrame: null });
  const [currentFrame, setCurrentFrame] = useState(0);
  const [windowSize, setWindowSize] = useState<{ width: number; height: number } | null>(null);
  /** A live stream's recording landed while it played: the player goes on with the file. */
  const [landed, setLanded] = useState(false);

  const fps = source?.fps ?? DEFAULT_PLAYER_FPS;
  const pieces = piecesOf(source);
  const piece = pieces[index];
  const live = Boolean(source?.live) && !landed && piece !== undefined;
  const fileUrl = piece ? mediaContentUrl(piece.mediaId, accountId) : undefined;
  // A live stream's video is fed by hls.js (or the browser's own HLS), not by a src attribute.
  const src = live ? undefined : fileUrl;

  // The message listener and the video's events read the latest state through this ref.
  const state = useRef({ source, index, marks, fps, pieces, piece, src });
  state.current = { source, index, marks, fps, pieces, piece, src };
  const target = useRef<Target | null>(null);
  const ready = useRef(false);
  /** Where to go once the piece's media has loaded, and whether to play on. */
  const pending = useRef<{ seconds: number | null; play: boolean }>({ seconds: null, play: false });

  const post = useCallback((message: PlayerEvent) => {
    const to = target.current ?? { window: window.parent, origin: window.location.origin };
    to.window.postMessage(message, to.origin);
  }, []);

  /** Shows a frame of a piece; when the piece's media differs, once it has loaded. */
  const goTo = (nextIndex: number, frame: number, play: boolean) => {
    const element = video.current;
    const { pieces: list, index: current, fps: rate } = state.current;
    const seconds = frame / rate;
    if (!element) return;
    if (nextIndex === current || list[nextIndex]?.mediaId === list[current]?.mediaId) {
      setIndex(nextIndex);
      element.currentTime = seconds;
      if (play) void playVideo(element);
      return;
    }
    pending.current = { seconds, play };
    setIndex(nextIndex);
  };

  const seek = (command: Extract<PlayerCommand, { type: 'seek' }>) => {
    const element = video.current;
    const { source: now, fps: rate } = state.current;
    if (!element) return;
    if (now?.edl) {
      const at = command.skipToEnd ? Number.POSITIVE_INFINITY : (command.seconds ?? 0);
      const position = edlPosition(now.edl.events, rate, at);
      goTo(position.index, position.frame, !element.paused);
    } else element.currentTime = command.skipToEnd ? element.duration || 0 : (command.seconds ?? 0);
  };

  const clipping = async () => {
    const element = video.current;
    const { marks: marked, fps: rate, piece: now } = state.current;
    if (!element || !now) return;
    element.pause();
    const end = now.outFrame ?? frameAt(element.duration || 0, rate);
    const range = clipRange(marked, end, now.inFrame);
    const shown = frameAt(element.currentTime, rate);
    const imageFrame = imageFrameFor(shown, range);
    if (imageFrame !== shown) await seekTo(element, timeOfFrame(imageFrame, rate));
    post({
      type: 'clipping',
      inFrame: range.inFrame,
      outFrame: range.outFrame,
      imageFrame,
      fps: rate,
      imageJpegDataURL: frameJpegDataUrl(element),
      length: range.outFrame - range.inFrame,
      videoWidth: element.videoWidth,
      isSelection: range.isSelection,
      edl: clipEdl(now.mediaId, rate, range),
    });
  };

  const handle = (command: PlayerCommand) => {
    const element = video.current;
    switch (command.type) {
      case 'loadSource':
        ready.current = false;
        pending.current = { seconds: null, play: false };
        setMarks({ inFrame: null, outFrame: null });
        setIndex(0);
        setLanded(false);
        setSource(command);
        return;
      case 'controlsMode':
        setMode(command.mode);
        return;
      case 'windowSize':
        setWindowSize({ width: command.width, height: command.height });
        return;
      case 'play':
        if (element) void playVideo(element);
        return;
      case 'stop':
        element?.pause();
        return;
      case 'seek':
        seek(command);
        return;
      case 'requestInOutPoints':
        void clipping();
        return;
    }
  };
  const handler = useRef(handle);
  handler.current = handle;

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      const command = readPlayerCommand(event, window.location.origin);
      if (!command) return;
      if (event.source && 'postMessage' in event.source)
        target.current = { window: event.source as Window, origin: event.origin };
      handler.current(command);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  const liveMediaId = live ? piece?.mediaId : undefined;
  useEffect(() => {
    const element = video.current;
    if (liveMediaId === undefined || !element) return;
    let stop: (() => void) | undefined;
    let gone = false;
    const onFatal = (reason: string) => {
      const file = mediaContentUrl(liveMediaId, accountId);
      void contentAnswers(file).then((answers) => {
        if (gone) return;
        if (answers) {
          // The recording has landed on the node: play it from where the live picture was.
          pending.current = { seconds: element.currentTime, play: !element.paused };
          setLanded(true);
        } else post({ type: 'errorLoadingMedia', reason });
      });
    };
    void attachLivePlaylist(element, livePlaylistUrl(liveMediaId), onFatal).then((detach) => {
      if (gone) detach();
      else stop = detach;
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [liveMediaId, accountId, video, post]);

  const mark = useCallback(
    (which: keyof Marks) => {
      const element = video.current;
      if (element) setMarks((now) => ({ ...now, [which]: frameAt(element.currentTime, state.current.fps) }));
    },
    [video],
  );

  const videoEvents = {
    onLoadedMetadata: () => {
      const element = video.current;
      const { piece: now, source: playing, fps: rate } = state.current;
      if (!element || !now) return;
      const { seconds, play } = pending.current;
      pending.current = { seconds: null, play: false };
      if (seconds !== null) element.currentTime = seconds;
      else if (now.inFrame > 0) element.currentTime = now.inFrame / rate;
      if (play) void playVideo(element);
      if (ready.current) return;
      ready.current = true;
      const duration = playing?.edl ? edlLength(playing.edl.events) / rate : element.duration;
      post({
        type: 'jsplayerReady',
        duration: Number.isFinite(duration) ? duration : null,
        videoWidth: element.videoWidth,
        videoHeight: element.videoHeight,
      });
    },
    onTimeUpdate: () => {
      const element = video.current;
      const { piece: now, index: current, pieces: list, fps: rate } = state.current;
      if (!element || !now) return;
      setCurrentFrame(frameAt(element.currentTime, rate));
      // An edl plays its pieces one after the other and stops at the end of the last.
      if (now.outFrame === null || element.currentTime < now.outFrame / rate) return;
      const next = list[current + 1];
      if (next) goTo(current + 1, next.inFrame, !element.paused);
      else element.pause();
    },
    onError: () => {
      const { src: url } = state.current;
      if (!url) return;
      void mediaErrorReason(url, PLAYER_MESSAGES.mediaLoadFailed).then((reason) =>
        post({ type: 'errorLoadingMedia', reason }),
      );
    },
  };

  return { source, src, live, mode, marks, fps, currentFrame, windowSize, mark, videoEvents };
};
