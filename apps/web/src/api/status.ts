import { CHANNELS, type StatusItem } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './client.ts';
import { useLiveRefresh } from './live.ts';

/** Whose status the shell shows: the account or site of the page. */
export type StatusContext = { kind: 'account'; id: number } | { kind: 'site'; id: number };

/** Edge servers change state without an event (an agent stops calling): looked at again this often. */
const REFRESH_MS = 15_000;

export const statusKey = (context: StatusContext) => ['status', context.kind, context.id] as const;

/** GET /api/{accounts|sites}/{id}/status, kept live by the channels its endpoints and edges publish on. */
export const useStatus = (context: StatusContext | undefined) => {
  const query = useQuery({
    queryKey: context ? statusKey(context) : ['status', 'none'],
    queryFn: () =>
      apiFetch<StatusItem[]>(`/api/${context?.kind === 'site' ? 'sites' : 'accounts'}/${context?.id}/status`),
    enabled: context !== undefined,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  const channel = context
    ? context.kind === 'account'
      ? CHANNELS.accountEndpoints(context.id)
      : CHANNELS.edgeServers('site', context.id)
    : undefined;
  useLiveRefresh(channel, context ? statusKey(context) : ['status', 'none']);
  return query;
};
