import type { LiveUpdate } from '@media/contract';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError } from '../../api/client.ts';
import { useLiveChannel } from '../../api/live.ts';

type List<T> = { results: T[]; total: number; channel: string };

/**
 * Puts one item, fetched again after a change, into a list (spec2 §4 Realtime): replaced in place when held,
 * added at the end when it belongs to the list, and dropped when it is gone (null) or no longer belongs.
 */
export const mergeById = <T extends { id: number }>(
  list: List<T>,
  id: number,
  item: T | null,
  belongs: (item: T) => boolean,
): List<T> => {
  const held = list.results.some((entry) => entry.id === id);
  if (item && belongs(item))
    return held
      ? { ...list, results: list.results.map((entry) => (entry.id === id ? item : entry)) }
      : { ...list, results: [...list.results, item], total: list.total + 1 };
  return held
    ? { ...list, results: list.results.filter((entry) => entry.id !== id), total: list.total - 1 }
    : list;
};

/** A refusal or a 404 means the item is gone from the caller's view. */
const isGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 403);

/**
 * Keeps a list live the spec2 §4 way: after the first load it follows the list's channel and, when a change
 * arrives, fetches each changed item by id and merges it into the list; a change without ids (or a failed
 * fetch) refetches the list.
 */
export const useLiveListById = <T extends { id: number }>(
  channel: string | undefined,
  queryKey: QueryKey,
  fetchOne: (id: number) => Promise<T>,
  belongs: (item: T) => boolean,
) => {
  const queryClient = useQueryClient();
  const latest = useRef({ queryKey, fetchOne, belongs });
  latest.current = { queryKey, fetchOne, belongs };
  useLiveChannel(channel, (data: LiveUpdate['data']) => {
    const { queryKey: key, fetchOne: fetch, belongs: fits } = latest.current;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: key });
    const ids = [...new Set((data.modified ?? []).map(Number).filter(Number.isInteger))];
    if (ids.length === 0) return refetch();
    const merge = (id: number, item: T | null) =>
      queryClient.setQueryData<List<T>>(key, (list) => list && mergeById(list, id, item, fits));
    for (const id of ids)
      fetch(id).then(
        (item) => merge(id, item),
        (error: unknown) => (isGone(error) ? merge(id, null) : refetch()),
      );
  });
};
