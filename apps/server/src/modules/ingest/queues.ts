// The queues (edge server, arrivals folder, account, endpoint): who may see one, and its pages.
import {
  CHANNELS,
  type EndpointStatus,
  hasRight,
  INGEST_FILTER_KINDS,
  INGEST_ITEM_ACTIONS,
  INGEST_MESSAGES,
  INGEST_STATUSES,
  type IngestQueueQuery,
  type IngestStatus,
  MANUAL_STATUS_CHANGES,
  type QueueItemFacts,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { findAncestry, mayManageEdgeServer, requireRight } from '../access/service.ts';
import { toItems } from './presenter.ts';
import * as repo from './repo.ts';

export type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** The queue a page lists, as its address names it. */
export type QueueOwner =
  | { kind: 'edgeServer'; id: number }
  | { kind: 'arrivalsFolder'; id: number }
  | { kind: 'account'; id: number }
  | { kind: 'endpoint'; id: number };

export const mayManageAccount = async (db: DbOrTx, actor: Actor, accountId: number | null) => {
  if (accountId == null) return false;
  const ancestry = await findAncestry(db, { kind: 'account', id: accountId });
  return ancestry !== undefined && hasRight(await actor.rights(), 'account.manage', ancestry);
};

const requireEdgeManager = async (db: DbOrTx, actor: Actor, edgeServerId: number) => {
  const edge = await repo.findEdgeServer(db, edgeServerId);
  if (!edge) throw notFound('Edge server');
  if (!(await mayManageEdgeServer(db, actor, edge))) throw forbidden();
  return edge;
};

/**
 * Rights, decided here: an edge server's queue is for those who manage the edge (mayManageEdgeServer); an
 * arrivals folder's or account's queue for the account's managers (account.manage); an endpoint's queue and
 * unprocessed files for either (the account pages list their endpoints' unprocessed files). Answers the
 * scope of the query and the channel of the list.
 */
export const requireQueue = async (
  db: DbOrTx,
  actor: Actor,
  owner: QueueOwner,
): Promise<{ scope: repo.QueueScope; channel: string; accountId: number | null }> => {
  switch (owner.kind) {
    case 'edgeServer':
      await requireEdgeManager(db, actor, owner.id);
      return {
        scope: { edgeServerId: owner.id },
        channel: CHANNELS.edgeIngestQueue(owner.id),
        accountId: null,
      };
    case 'arrivalsFolder': {
      const folder = await repo.findFolder(db, owner.id);
      if (!folder) throw notFound('Arrivals folder');
      await requireRight(db, actor, 'account.manage', { kind: 'account', id: folder.accountId });
      return {
        scope: { arrivalsFolderId: owner.id },
        channel: CHANNELS.accountIngestQueue(folder.accountId),
        accountId: folder.accountId,
      };
    }
    case 'account':
      await requireRight(db, actor, 'account.manage', { kind: 'account', id: owner.id });
      return {
        scope: { accountId: owner.id },
        channel: CHANNELS.accountIngestQueue(owner.id),
        accountId: owner.id,
      };
    case 'endpoint': {
      const [endpoint] = await repo.findEndpointEdges(db, [owner.id]);
      if (!endpoint) throw notFound('Endpoint');
      if (
        !(await mayManageEdgeServer(db, actor, endpoint)) &&
        !(await mayManageAccount(db, actor, endpoint.accountId))
      )
        throw forbidden();
      return {
        scope: { endpointId: owner.id },
        channel:
          endpoint.accountId != null
            ? CHANNELS.accountIngestQueue(endpoint.accountId)
            : CHANNELS.edgeIngestQueue(endpoint.edgeServerId),
        accountId: endpoint.accountId,
      };
    }
  }
};

export const factsOf = (row: repo.ItemRow): QueueItemFacts => ({
  status: row.status as IngestStatus,
  isStream: row.isStream,
  isSchedule: row.isSchedule,
  endpointStatus: row.endpointStatus as EndpointStatus | null,
});

/** Splits 'queued|streams' into statuses and kinds (the contract's schema has checked every token). */
const parseFilters = (filters: string) => {
  const tokens = filters ? filters.split('|') : [];
  return {
    statuses: tokens.filter((t): t is IngestStatus => (INGEST_STATUSES as readonly string[]).includes(t)),
    kinds: tokens.filter((t): t is (typeof INGEST_FILTER_KINDS)[number] =>
      (INGEST_FILTER_KINDS as readonly string[]).includes(t),
    ),
  };
};

const parsePriorityMap = (text: string | undefined) => {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(INGEST_MESSAGES.badPriorityMap, { priorityMap: INGEST_MESSAGES.badPriorityMap });
  }
  const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : null;
  if (
    !entries ||
    entries.some(([id, boost]) => !/^\d+$/.test(id) || typeof boost !== 'number' || !Number.isFinite(boost))
  )
    throw badRequest(INGEST_MESSAGES.badPriorityMap, { priorityMap: INGEST_MESSAGES.badPriorityMap });
  return Object.fromEntries(entries.map(([id, boost]) => [Number(id), boost as number]));
};

export const listQueue = async ({
  ctx,
  actor,
  owner,
  query,
}: Call<{ owner: QueueOwner; query: IngestQueueQuery }>) => {
  const { scope, channel } = await requireQueue(ctx.db, actor, owner);
  // Read before the page, so a change committed meanwhile is seen again rather than missed.
  const version = await repo.currentVersion(ctx.db);
  const { rows, total } = await repo.findQueuePage(
    ctx.db,
    scope,
    {
      ...parseFilters(query.filters),
      search: query.search || undefined,
      extendedSearch: query.extendedSearch === '1',
      sinceVersion: query.sinceVersion,
      endpointIds: query.edgesEndpointIds?.split(',').map(Number),
    },
    { ...query, priorityMap: parsePriorityMap(query.priorityMap) },
  );
  return { results: await toItems(ctx.db, rows), total, channel, version };
};

export const queueActions = async ({ ctx, actor, owner }: Call<{ owner: QueueOwner }>) => {
  await requireQueue(ctx.db, actor, owner);
  return {
    statusChanges: Object.fromEntries(
      Object.entries(MANUAL_STATUS_CHANGES).map(([from, to]) => [from, [...to]]),
    ),
    actions: [...INGEST_ITEM_ACTIONS],
  };
};
