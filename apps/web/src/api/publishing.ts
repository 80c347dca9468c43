import {
  CHANNELS,
  type Publish,
  type PublishButton,
  type PublishButtonBody,
  type PublishContextKind,
  type PublishHelpOptions,
  type PublishIcon,
  type PublishLocation,
  type PublishModule,
  type PublishModuleType,
  type RecycledButton,
  type RoleRestriction,
} from '@media/contract';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, retryUnlessRefused } from './client.ts';
import { useLiveRefresh } from './live.ts';
import { uploadFile } from './uploads.ts';

type Collection<T> = { results: T[]; total: number; channel: string };
type PublishButtonStatus = { numberOfPublishedItems: number };

/** spec3 §7: ctx is sites/{siteId} or accounts/{accountId}. */
export type PublishContext = { scope: PublishContextKind; scopeId: number };

const ctxPath = ({ scope, scopeId }: PublishContext) => `/api/${scope}/${scopeId}`;

export const publishingKey = (ctx: PublishContext) => ['publishing', ctx.scope, ctx.scopeId] as const;
export const publishButtonsKey = (ctx: PublishContext) => [...publishingKey(ctx), 'buttons'] as const;
const iconsKey = (ctx: PublishContext) => [...publishingKey(ctx), 'icons'] as const;
const buttonKey = (id: number) => ['publishButton', id] as const;
const publishesKey = ['publishes'] as const;

/** A list answer, whether the server sends a bare array or a collection with its channel. */
const asCollection = <T>(answer: Collection<T> | T[]): Collection<T> =>
  Array.isArray(answer) ? { results: answer, total: answer.length, channel: '' } : answer;

/** GET /api/{ctx}/publishLocations: where a button can run, with the module versions installed there. */
export const usePublishLocations = (ctx: PublishContext) =>
  useQuery({
    queryKey: [...publishingKey(ctx), 'locations'],
    queryFn: async () =>
      asCollection(
        await apiFetch<Collection<PublishLocation> | PublishLocation[]>(`${ctxPath(ctx)}/publishLocations`, {
          raw: true,
        }),
      ).results,
  });

/** GET /api/{ctx}/publishModules?kind=…: the modules (all kinds without one). */
export const usePublishModules = (ctx: PublishContext, kind?: PublishModuleType) =>
  useQuery({
    queryKey: [...publishingKey(ctx), 'modules', kind ?? 'all'],
    queryFn: async () =>
      asCollection(
        await apiFetch<Collection<PublishModule> | PublishModule[]>(
          `${ctxPath(ctx)}/publishModules${kind ? `?kind=${kind}` : ''}`,
          { raw: true },
        ),
      ).results,
    staleTime: 5 * 60_000,
  });

/** GET /api/{ctx}/publishButtons?phases=expand (includeAll for accounts) with the list's channel. */
export const usePublishButtons = (ctx: PublishContext, options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: publishButtonsKey(ctx),
    enabled: options.enabled ?? true,
    queryFn: async () => {
      const query = new URLSearchParams({ phases: 'expand' });
      if (ctx.scope === 'accounts') query.set('includeAll', '1');
      return asCollection(
        await apiFetch<Collection<PublishButton> | PublishButton[]>(
          `${ctxPath(ctx)}/publishButtons?${query}`,
          { raw: true },
        ),
      );
    },
  });

/** GET /api/{ctx}/publishIcons. */
export const usePublishIcons = (ctx: PublishContext) =>
  useQuery({
    queryKey: iconsKey(ctx),
    queryFn: async () =>
      asCollection(
        await apiFetch<Collection<PublishIcon> | PublishIcon[]>(`${ctxPath(ctx)}/publishIcons`, {
          raw: true,
        }),
      ),
  });

/** Where an icon's picture is served. */
export const publishIconUrl = (id: number) => `/api/publishIcons/${id}/image`;

/** Puts a saved button into the cached list, replacing the one with its id. */
const useUpsertButton = (ctx: PublishContext) => {
  const queryClient = useQueryClient();
  return (button: PublishButton) =>
    queryClient.setQueryData<Collection<PublishButton>>(publishButtonsKey(ctx), (list) => {
      if (!list) return list;
      const exists = list.results.some((b) => b.id === button.id);
      return exists
        ? { ...list, results: list.results.map((b) => (b.id === button.id ? button : b)) }
        : { ...list, results: [...list.results, button], total: list.total + 1 };
    });
};

/**
 * POST /api/{ctx}/publishButtons: the button without transient fields; the answer is its id. The list shows
 * the new button at once (flags as the body gives them) and is then fetched again for the server's copy.
 */
export const useCreatePublishButton = (ctx: PublishContext) => {
  const upsert = useUpsertButton(ctx);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishButtonBody) =>
      apiFetch<{ id: number }>(`${ctxPath(ctx)}/publishButtons`, { method: 'POST', body }),
    onSuccess: ({ id }, body) => {
      upsert({
        ...body,
        id,
        accountId: ctx.scope === 'accounts' ? ctx.scopeId : null,
        siteId: ctx.scope === 'sites' ? ctx.scopeId : null,
        complicated: false,
        bad: false,
        problems: [],
        createdAt: new Date().toISOString(),
      });
      void queryClient.invalidateQueries({ queryKey: publishButtonsKey(ctx) });
    },
  });
};

export type PublishButtonUpdate = PublishButtonBody | { id: number; name: string } | { enabled: boolean };

/** POST /api/publishButtons/{id}: the whole button, or {id, name} (rename), or {enabled}. */
export const useSavePublishButton = (ctx: PublishContext) => {
  const upsert = useUpsertButton(ctx);
  return useMutation({
    mutationFn: ({ id, update }: { id: number; update: PublishButtonUpdate }) =>
      apiFetch<PublishButton>(`/api/publishButtons/${id}`, { method: 'POST', body: update }),
    onSuccess: upsert,
  });
};

/** POST /api/publishButtons/{id}/trash: its published items go to the Recycle Bin. */
export const useTrashPublishButton = (ctx: PublishContext) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/publishButtons/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: (_answer, id) =>
      queryClient.setQueryData<Collection<PublishButton>>(publishButtonsKey(ctx), (list) =>
        list
          ? { ...list, results: list.results.filter((b) => b.id !== id), total: Math.max(0, list.total - 1) }
          : list,
      ),
  });
};

/** GET /api/publishButtons/{id}/status: numberOfPublishedItems. */
export const usePublishButtonStatus = (id: number | undefined) =>
  useQuery({
    queryKey: [...buttonKey(id ?? 0), 'status'],
    enabled: id !== undefined,
    queryFn: () => apiFetch<PublishButtonStatus>(`/api/publishButtons/${id}/status`),
  });

/** GET /api/publishButtons/{id}/roleRestrictions. */
export const useRoleRestrictions = (id: number | undefined) =>
  useQuery({
    queryKey: [...buttonKey(id ?? 0), 'roleRestrictions'],
    enabled: id !== undefined,
    queryFn: () => apiFetch<RoleRestriction[]>(`/api/publishButtons/${id}/roleRestrictions`),
  });

/** POST /api/publishButtons/{id}/roleRestrictions: the whole list. */
export const useSaveRoleRestrictions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, restrictions }: { id: number; restrictions: RoleRestriction[] }) =>
      apiFetch<RoleRestriction[]>(`/api/publishButtons/${id}/roleRestrictions`, {
        method: 'POST',
        body: restrictions,
      }),
    onSuccess: (saved, { id }) => {
      if (Array.isArray(saved)) queryClient.setQueryData([...buttonKey(id), 'roleRestrictions'], saved);
    },
  });
};

/**
 * POST /api/{ctx}/publishIcons: multipart field uploadfile, reporting progress as a fraction (the web
 * upload's sender, which XMLHttpRequest lets report progress).
 */
export const useUploadPublishIcon = (ctx: PublishContext) => {
  const queryClient = useQueryClient();
  return async (file: File, onProgress: (fraction: number) => void): Promise<PublishIcon> => {
    const outcome = await uploadFile(`${ctxPath(ctx)}/publishIcons`, file, onProgress);
    if (!('upload' in outcome)) throw new Error(`Unexpected response from server "${outcome.redirect}"`);
    await queryClient.invalidateQueries({ queryKey: iconsKey(ctx) });
    return outcome.upload as unknown as PublishIcon;
  };
};

/** POST /api/publishIcons/{id}/trash. */
export const useTrashPublishIcon = (ctx: PublishContext) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/publishIcons/${id}/trash`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: iconsKey(ctx) }),
  });
};

/** POST /api/{ctx}/publishModules/{moduleId}/actions/{action}: {options, data: {state}}; the answer is open. */
export const useModuleAction = (ctx: PublishContext) =>
  useMutation({
    mutationFn: ({
      moduleId,
      action,
      options,
      state = null,
    }: {
      moduleId: string;
      action: string;
      options: Record<string, unknown>;
      state?: unknown;
    }) =>
      apiFetch<unknown>(
        `${ctxPath(ctx)}/publishModules/${encodeURIComponent(moduleId)}/actions/${encodeURIComponent(action)}`,
        { method: 'POST', body: { options, data: { state } } },
      ),
  });

/** GET /api/publishButtons/{id}/publishes: the button's published items, kept live on their channel. */
export const useButtonPublishes = (id: number | undefined) => {
  const queryKey = [...buttonKey(id ?? 0), 'publishes'];
  const query = useQuery({
    queryKey,
    enabled: id !== undefined,
    queryFn: () =>
      apiFetch<Collection<Publish>>(`/api/publishButtons/${id}/publishes?limit=100`, { raw: true }),
  });
  useLiveRefresh(query.data?.channel, queryKey);
  return query;
};

/** POST /api/publishes/{id}/republish: a new published item with the same options. */
export const useRepublish = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<Publish>(`/api/publishes/${id}/republish`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['publishButton'] }),
  });
};

/** GET /api/{ctx}/recycleBin: trashed buttons with the items they took with them (managers). */
export const useRecycleBin = (ctx: PublishContext, enabled: boolean) =>
  useQuery({
    queryKey: [...publishingKey(ctx), 'recycleBin'],
    enabled,
    queryFn: () => apiFetch<RecycledButton[]>(`${ctxPath(ctx)}/recycleBin`),
  });

/** POST /api/publishButtons/{id}/restore or /purge; the buttons and the bin are read again. */
export const useRecycleBinAction = (ctx: PublishContext) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'restore' | 'purge' }) =>
      apiFetch<{ ok: true }>(`/api/publishButtons/${id}/${action}`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: publishingKey(ctx) }),
  });
};

/**
 * GET /api/publishes/{id} for each published item named: their status and progress, kept live on the
 * account's publishes channel (every run's change is announced there).
 */
export const usePublishes = (ids: number[], accountId: number | undefined) => {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: [...publishesKey, id],
      queryFn: () => apiFetch<Publish>(`/api/publishes/${id}`),
    })),
  });
  useLiveRefresh(accountId === undefined ? undefined : CHANNELS.publishes(accountId), publishesKey);
  return results;
};

/** GET /api/publishes/{id}: one published item, kept live on its account's publishes channel. */
export const usePublishItem = (id: number) => {
  const queryKey = [...publishesKey, id];
  const query = useQuery({
    queryKey,
    queryFn: () => apiFetch<Publish>(`/api/publishes/${id}`),
    retry: retryUnlessRefused,
  });
  useLiveRefresh(query.data ? CHANNELS.publishes(query.data.accountId) : undefined, queryKey);
  return query;
};

/** GET /api/publishes/{id}/help: the first answer of a published item's help (spec3 §4). */
export const getPublishHelp = (id: number) => apiFetch<unknown>(`/api/publishes/${id}/help`);

/** POST /api/publishes/{id}/help: the next step, with the options of the last set-options. */
export const postPublishHelp = (id: number, options: PublishHelpOptions) =>
  apiFetch<unknown>(`/api/publishes/${id}/help`, { method: 'POST', body: { options } });
