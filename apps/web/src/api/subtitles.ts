import type { Subtitle, SubtitleFormat, SubtitleLanguage } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';
import { useLiveRefresh } from './live.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

const subtitlesKey = (mediaId: number) => ['subtitles', mediaId] as const;
const subtitlesUrl = (mediaId: number, language?: SubtitleLanguage) =>
  `/api/media/${mediaId}/subtitles${language ? `/${language}` : ''}`;

/** GET /api/media/{id}/subtitles, refreshed when the account's nodes change (a save announces there). */
export const useSubtitles = (mediaId: number) => {
  const query = useQuery({
    queryKey: subtitlesKey(mediaId),
    queryFn: () => apiFetch<Collection<Subtitle>>(subtitlesUrl(mediaId), { raw: true }),
  });
  useLiveRefresh(query.data?.channel || undefined, subtitlesKey(mediaId));
  return query;
};

/** PUT /api/media/{id}/subtitles/{language} with the file as the body; DELETE the same. */
export const useSubtitleMutations = (mediaId: number) => {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: subtitlesKey(mediaId) });
  const save = useMutation({
    mutationFn: (file: { language: SubtitleLanguage; format: SubtitleFormat; content: string }) =>
      apiFetch<Subtitle>(subtitlesUrl(mediaId, file.language), {
        method: 'PUT',
        text: {
          content: file.content,
          contentType: file.format === 'vtt' ? 'text/vtt' : 'application/x-subrip',
        },
      }),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (language: SubtitleLanguage) =>
      apiFetch(subtitlesUrl(mediaId, language), { method: 'DELETE' }),
    onSuccess,
  });
  return { save, remove };
};
