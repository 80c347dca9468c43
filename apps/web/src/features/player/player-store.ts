import type { ClipMarks, PlayerMediaInfo } from '@media/contract';
import { createStore, useStore } from '../../ui/store.ts';

/** What a page gives to open the floating player on a piece of media (spec3 §2 Floating player). */
export type OpenPlayerRequest = {
  /** The media to play: a node's mediaId (an edl node's too). */
  mediaId: number;
  /** The title of the window and the root of the clip's default title; the media's own name if absent. */
  name?: string;
  /** The folder new clips are saved to, as an API path (`/{accountName}/News`). */
  path: string;
  accountId: number;
  accountName: string;
  /** Where to start: seconds, or 'end' to seek to the end; else the media info's start. */
  start?: PlayerMediaInfo['start'];
};

/** spec3 §3 Clip: the player's marks and the title the user gives it. */
export type Clip = ClipMarks & { name: string };

type OpenPlayer = OpenPlayerRequest & { key: number };

/** One floating player at a time: opening another media replaces it. */
const playerStore = createStore<OpenPlayer | null>(null);
let sequence = 0;

export const openPlayer = (request: OpenPlayerRequest) => playerStore.set({ ...request, key: ++sequence });
export const closePlayer = () => playerStore.set(null);

/** The open player (or null), and the calls that open and close it. */
export const usePlayer = () => ({ player: useStore(playerStore), openPlayer, closePlayer });

/** The open player, outside React. */
export const playerState = () => playerStore.get();
