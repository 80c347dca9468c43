import { publishButtonNameOf, splitAccountPath } from '@media/contract';
import { createStore, useStore } from '../../ui/store.ts';

/** A published item started from this page: the button's place in the tree and the node it publishes. */
export type RecentPublish = { id: number; accountName: string; buttonName: string; nodeName: string };

/** At most this many recent publishes are shown; older ones stay in their button's published items. */
export const RECENT_PUBLISHES_MAX = 5;

const store = createStore<RecentPublish[]>([]);

/** The published items a publish answered (one per node, in the order of the nodes), newest first. */
export const recentPublishesOf = (
  ids: number[],
  from: { dstPath: string; nodeNames: string[] },
): RecentPublish[] => {
  const { accountName, innerPath } = splitAccountPath(from.dstPath);
  const buttonName = publishButtonNameOf(innerPath) ?? innerPath;
  return ids
    .map((id, index) => ({ id, accountName, buttonName, nodeName: from.nodeNames[index] ?? '' }))
    .reverse();
};

/** Adds the items a publish answered to the recent publishes. */
export const rememberPublishes = (ids: number[], from: { dstPath: string; nodeNames: string[] }) => {
  if (ids.length === 0) return;
  const added = recentPublishesOf(ids, from);
  const known = new Set(added.map((item) => item.id));
  store.set([...added, ...store.get().filter((item) => !known.has(item.id))].slice(0, RECENT_PUBLISHES_MAX));
};

export const forgetPublish = (id: number) => store.set(store.get().filter((item) => item.id !== id));

/** The recent publishes of an account, newest first. */
export const useRecentPublishes = (accountName: string) =>
  useStore(store).filter((item) => item.accountName === accountName);
