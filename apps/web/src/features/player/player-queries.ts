import { clipSavePayload, errorText, type MediaNode, type PlayerMediaInfo } from '@media/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client.ts';
import type { Clip } from './player-store.ts';

/** The player's calls (spec3 §7): node and media calls send the API version header. */

export const mediaContentUrl = (mediaId: number, accountId?: number) =>
  `/api/media/${mediaId}/content${accountId ? `?accountId=${accountId}` : ''}`;

/** GET /api/media/{id}: the player media info (spec3 §3); a refusal is not retried. */
export const usePlayerMediaInfo = (mediaId: number) =>
  useQuery({
    queryKey: ['player', 'media', mediaId],
    queryFn: () => apiFetch<PlayerMediaInfo>(`/api/media/${mediaId}`, { apiVersion: 'nodes' }),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

/** POST /api/nodes with the clip save payload (spec3 §3), under the folder the player was opened from. */
export const useSaveClip = () =>
  useMutation({
    mutationFn: ({ clip, parentPath }: { clip: Clip; parentPath: string }) =>
      apiFetch<MediaNode>('/api/nodes', {
        method: 'POST',
        body: clipSavePayload(clip, parentPath),
        apiVersion: 'nodes',
      }),
  });

/** Asks for the media's first byte: null when it answers, else the server's reason. */
const firstByteProblem = async (url: string) => {
  const response = await fetch(url, { headers: { range: 'bytes=0-0' }, credentials: 'same-origin' });
  if (response.ok) return null;
  return errorText(await response.json().catch(() => response.statusText));
};

/** Whether the media at `url` answers now (a stream's recording has landed, say). */
export const contentAnswers = async (url: string) =>
  (await firstByteProblem(url).catch(() => 'unreachable')) === null;

/**
 * Why a video would not load: the element only says "format error", so ask the server for the first byte
 * and read its error; when the file answers (or the server cannot be asked), the browser could not decode it.
 */
export const mediaErrorReason = async (url: string, fallback: string) =>
  (await firstByteProblem(url).catch(() => null)) ?? fallback;
