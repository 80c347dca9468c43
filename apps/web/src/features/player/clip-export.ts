import { CLIP_EXPORT_MESSAGES, type ClipRenderState, type PlayerMediaInfo } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../api/client.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';

/** While a render runs its state is read again this often, besides the live change that ends it. */
const RENDER_POLL_MS = 2000;

const renderKey = (mediaId: number) => ['player', 'render', mediaId] as const;
const renderUrl = (info: PlayerMediaInfo) => `/api/edls/${info.mediaId}/render?accountId=${info.accountId}`;

/**
 * The floating player's export of a clip (spec3 §2): POST /api/edls/{id}/render has the clip rendered into a
 * playable file in its folder (at once when it has one already); its state is followed live (and polled)
 * until the file is there, then `onRendered` plays it. A render that fails says why.
 */
export const useClipExport = (info: PlayerMediaInfo, onRendered: () => void) => {
  const queryClient = useQueryClient();
  const isClip = info.type === 'edl' && info.edl !== null;
  const [waiting, setWaiting] = useState(false);
  const key = renderKey(info.mediaId);
  const render = useMutation({
    mutationFn: () =>
      apiFetch<ClipRenderState>(`/api/edls/${info.mediaId}/render`, {
        method: 'POST',
        body: { accountId: info.accountId },
        apiVersion: 'nodes',
      }),
    onSuccess: (state) => queryClient.setQueryData(key, state),
  });
  const state = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<ClipRenderState>(renderUrl(info), { apiVersion: 'nodes' }),
    enabled: waiting && render.isSuccess,
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? RENDER_POLL_MS : false),
  });
  useLiveRefresh(waiting ? state.data?.channel : undefined, key);

  const rendered = useRef(onRendered);
  rendered.current = onRendered;
  const status = waiting ? state.data?.status : undefined;
  const error = state.data?.error;
  useEffect(() => {
    if (status === 'ready') {
      setWaiting(false);
      rendered.current();
    } else if (status === 'failed') {
      setWaiting(false);
      showAlert({ type: 'danger', text: CLIP_EXPORT_MESSAGES.failed(error ?? '') });
    }
  }, [status, error]);

  const start = () => {
    queryClient.removeQueries({ queryKey: key });
    setWaiting(true);
    render.mutate(undefined, {
      onError: (failure) => {
        setWaiting(false);
        showAlert({ type: 'danger', text: CLIP_EXPORT_MESSAGES.failed(failure.message) });
      },
    });
  };
  return { isClip, rendering: waiting, start };
};
