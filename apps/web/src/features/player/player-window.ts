import {
  type LoadSource,
  PLAYER_MIN_SIZE,
  PLAYER_MINIMISED_SIZE,
  PLAYER_WINDOW_OFFSET_X,
  PLAYER_WINDOW_OFFSET_Y,
  type PlayerCommand,
  type PlayerEvent,
  type PlayerMediaInfo,
  playerCommandSchema,
  playerEventSchema,
} from '@media/contract';
import { HEADER_HEIGHT } from '../../ui/layout.ts';

/** What the floating player decides from the media info and the player's messages (spec3 §4 Player). */

/**
 * The source to load: the media id, or else (an edl, which has no file of its own) the edl id with its
 * pieces, so the frame needs no further call.
 */
export const sourceCommand = (info: PlayerMediaInfo): LoadSource | null => {
  if (info.edl && (info.type === 'edl' || info.mediaId <= 0))
    return { type: 'loadSource', edlId: info.edl.id, edl: info.edl, fps: info.edl.fps };
  if (info.mediaId > 0 && info.type === 'lifestream')
    return { type: 'loadSource', mediaId: info.mediaId, fps: info.edl?.fps, live: true };
  if (info.mediaId > 0) return { type: 'loadSource', mediaId: info.mediaId, fps: info.edl?.fps };
  return null;
};

/** When the player is ready it plays; a start of 'end' seeks to the end first, a number seeks there. */
export const readyCommands = (start: PlayerMediaInfo['start']): PlayerCommand[] => {
  if (start === 'end') return [{ type: 'seek', skipToEnd: true }, { type: 'play' }];
  if (typeof start === 'number' && start > 0) return [{ type: 'seek', seconds: start }, { type: 'play' }];
  return [{ type: 'play' }];
};

export type Size = { width: number; height: number };

/** The window's top: below the header (whose controls stay usable), one side offset down. */
export const PLAYER_TOP = HEADER_HEIGHT + PLAYER_WINDOW_OFFSET_X;

/**
 * The window that fits the video: the video's size plus the window's frame (12 px of sides, 46 px of title
 * bar and bottom), shrunk to fit the browser window below PLAYER_TOP, never under the minimum size.
 */
export const fittedPlayerSize = (video: Size, viewport: Size): Size => {
  const room = {
    width: viewport.width - 2 * PLAYER_WINDOW_OFFSET_X - PLAYER_WINDOW_OFFSET_X,
    height: viewport.height - PLAYER_TOP - PLAYER_WINDOW_OFFSET_X - PLAYER_WINDOW_OFFSET_Y,
  };
  if (video.width <= 0 || video.height <= 0) return { ...PLAYER_MIN_SIZE };
  const scale = Math.max(0, Math.min(1, room.width / video.width, room.height / video.height));
  return {
    width: Math.max(PLAYER_MIN_SIZE.width, Math.round(video.width * scale) + PLAYER_WINDOW_OFFSET_X),
    height: Math.max(PLAYER_MIN_SIZE.height, Math.round(video.height * scale) + PLAYER_WINDOW_OFFSET_Y),
  };
};

/** The window's first size before the player says how large its video is: the proxy's, when known. */
export const initialPlayerSize = (
  info: Pick<PlayerMediaInfo, 'proxyWidth' | 'proxyHeight'>,
  viewport: Size,
) => fittedPlayerSize({ width: info.proxyWidth ?? 0, height: info.proxyHeight ?? 0 }, viewport);

/**
 * Where a window of `size` opens: at the top right of the page, one side offset in and below the header, so
 * the folder tree on the left stays in view (a window as wide as the page starts one offset from the left).
 */
export const initialPlayerPosition = (size: Size, viewport: Size) => ({
  x: Math.max(PLAYER_WINDOW_OFFSET_X, viewport.width - size.width - PLAYER_WINDOW_OFFSET_X),
  y: PLAYER_TOP,
});

/** The window's size in a state: minimised windows all share one small size. */
export const windowSize = (size: Size, minimised: boolean): Size =>
  minimised ? { ...PLAYER_MINIMISED_SIZE } : size;

type Incoming = Pick<MessageEvent, 'data' | 'origin' | 'source'>;

/**
 * A message from the player frame, if it is one: it must come from this page's origin and from the frame
 * itself, and match the contract; anything else (other frames, extensions, dev tools) is ignored.
 */
export const readPlayerEvent = (
  event: Incoming,
  frame: MessageEventSource | null,
  origin: string,
): PlayerEvent | null => {
  if (event.origin !== origin || !frame || event.source !== frame) return null;
  const parsed = playerEventSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
};

/** A command to the embedded player, if it is one: only this page's origin may drive it. */
export const readPlayerCommand = (event: Incoming, origin: string): PlayerCommand | null => {
  if (event.origin !== origin) return null;
  const parsed = playerCommandSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
};
