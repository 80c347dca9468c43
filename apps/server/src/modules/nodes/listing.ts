import {
  CHANNELS,
  NODE_MESSAGES,
  NODE_TYPES,
  type NodeDetails,
  type NodesQuery,
  nodeTypesShown,
  parseEditorNodeId,
  type SearchClause,
  searchKeyOf,
} from '@media/contract';
import { and, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { containsPattern, lowerContains } from '../../platform/db/search.ts';
import { badRequest } from '../../platform/errors.ts';
import {
  belowPattern,
  checkVisible,
  hiddenPaths,
  innerPathChain,
  notHidden,
  requireNodeAt,
  type TreeAccess,
  treeAccess,
} from './access.ts';
import { visibleMediaIds } from './media.ts';
import { presentNode } from './presenter.ts';
import * as repo from './repo.ts';
import { nodes } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

const DAY_MS = 86_400_000;

/**
 * The trigram-indexed search_text holds the name as typed and the metadata values as JSON text, where a
 * quote, a backslash or a control character is escaped: a value free of those can be looked for there
 * first, so that the index narrows a search of a million nodes before the exact condition runs.
 */
const escapedInJson = (character: string) => character === '"' || character === '\\' || character < ' ';
const indexablePrefilter = (value: string, inMetadata: boolean) =>
  inMetadata && [...value].some(escapedInJson)
    ? undefined
    : sql`${nodes.searchText} like ${containsPattern(value)}`;

/** One search clause: name, text (name and metadata values) or one metadata key; contains or exact. */
const clauseCondition = ({ key, value, match }: SearchClause): SQL => {
  const lowered = value.toLowerCase();
  if (key === 'name')
    return and(
      indexablePrefilter(value, false),
      match === 'exact' ? sql`lower(${nodes.name}) = ${lowered}` : lowerContains(sql`${nodes.name}`, value),
    ) as SQL;
  if (key === 'text')
    return match === 'exact'
      ? (and(
          indexablePrefilter(value, true),
          sql`(lower(${nodes.name}) = ${lowered} or exists (select 1 from jsonb_each_text(${nodes.metadata}) as "entry" where lower("entry"."value") = ${lowered}))`,
        ) as SQL)
      : sql`${nodes.searchText} like ${containsPattern(value)}`;
  const field = sql`${nodes.metadata} ->> ${key}`;
  return and(
    indexablePrefilter(value, true),
    match === 'exact' ? sql`lower(${field}) = ${lowered}` : lowerContains(field, value),
  ) as SQL;
};

/** The filters every listing applies: types, name filter, created days (inclusive), hidden subtrees. */
const commonFilters = (access: TreeAccess, query: NodesQuery) => [
  inArray(nodes.type, nodeTypesShown(query.type)),
  lowerContains(sql`${nodes.name}`, query.childFilter),
  query.createdFrom ? gte(nodes.createdAt, new Date(`${query.createdFrom}T00:00:00Z`)) : undefined,
  query.createdTo
    ? lt(nodes.createdAt, new Date(new Date(`${query.createdTo}T00:00:00Z`).getTime() + DAY_MS))
    : undefined,
  notHidden(access),
];

/**
 * GET /api/nodes: the node at a path, its ancestors and a page of its children, or with search clauses
 * the matching descendants (spec3 §4 Media tree, §7).
 */
export const listNodes = async ({ ctx, actor, query }: Call<{ query: NodesQuery }>) => {
  if (!query.path) throw badRequest('A path or an id is required', { path: 'A path or an id is required' });
  const { access, node } = await requireNodeAt(ctx.db, actor, query.path);
  const accountId = access.account.id;
  const where = query.search.length
    ? and(
        eq(nodes.accountId, accountId),
        ne(nodes.path, node.path),
        sql`${nodes.path} like ${belowPattern(node.path)}`,
        ...query.search.map(clauseCondition),
        ...commonFilters(access, query),
      )
    : and(eq(nodes.parentId, node.id), ...commonFilters(access, query));
  const hidden = hiddenPaths(access);
  const chainRead = repo.findChain(ctx.db, accountId, innerPathChain(node.path), hidden);
  const pageRead = (knownTotal?: number) =>
    repo.findPage(ctx.db, {
      where,
      order: query.childOrder === 'alphabetical' ? repo.ALPHABETICAL_ORDER : repo.TIME_ORDER,
      limit: query.limit,
      offset: query.nextChildOffset,
      hidden,
      knownTotal,
      countAlongside: ctx.database.driver === 'postgres',
    });
  // Unfiltered children of every type are the node's visible child count (kept by the database); a filtered
  // page counts its own, and is read meanwhile (PostgreSQL answers both at once).
  const unfiltered =
    !query.search.length &&
    !query.childFilter &&
    !query.createdFrom &&
    !query.createdTo &&
    nodeTypesShown(query.type).length === NODE_TYPES.length;
  const [chain, page] = unfiltered
    ? await chainRead.then(async (chain) => [chain, await pageRead(chain.at(-1)?.childCount)] as const)
    : await Promise.all([chainRead, pageRead()]);
  const self = chain.at(-1);
  if (!self) throw new Error('node vanished');
  const nextOffset = query.nextChildOffset + page.rows.length;
  const searchKey = searchKeyOf(query);
  return {
    results: {
      ancestors: chain.slice(0, -1).map((row) => presentNode(row, access)),
      node: presentNode(self, access),
      children: page.rows.map((row) => presentNode(row, access, undefined, searchKey)),
      nextChildOffset: page.more ? nextOffset : null,
      actingRole: access.actingRole,
    },
    total: page.total,
    totalCapped: page.totalCapped,
    channel: CHANNELS.nodes(accountId),
  };
};

/** GET /api/nodes?getDetails=1&id=…: a node as the editor opens it, with its media and edl. */
export const nodeDetails = async ({ ctx, actor, id }: Call<{ id: string }>): Promise<NodeDetails> => {
  const unexpected = () =>
    badRequest(NODE_MESSAGES.unexpectedNodeId(id), { id: NODE_MESSAGES.unexpectedNodeId(id) });
  let ref: ReturnType<typeof parseEditorNodeId>;
  try {
    ref = parseEditorNodeId(id);
  } catch {
    throw unexpected();
  }
  if (
    !Number.isInteger(ref.accountId) ||
    !Number.isInteger(ref.nodeId) ||
    ref.accountId < 1 ||
    ref.nodeId < 1
  )
    throw unexpected();
  const access = await treeAccess(ctx.db, actor, { id: ref.accountId });
  const [row] = await repo.findPresentable(
    ctx.db,
    and(eq(nodes.id, ref.nodeId), eq(nodes.accountId, ref.accountId)),
    hiddenPaths(access),
  );
  const { node, rights } = checkVisible(access, row);
  const mediaRow = node.mediaId ? await repo.findMedia(ctx.db, node.mediaId) : undefined;
  const edl = mediaRow?.edl ? { ...mediaRow.edl, id: mediaRow.id } : null;
  const sourceIds = [...new Set(edl?.events.map((event) => event.mediaId) ?? [])];
  // A piece only hidden folders show keeps its place in the edl, but not its name.
  const [named, visible] = await Promise.all([
    repo.findMediaNames(ctx.db, ref.accountId, sourceIds),
    visibleMediaIds(ctx, access, sourceIds),
  ]);
  const names = new Map(
    named.filter((entry) => visible.has(entry.id)).map((entry) => [entry.id, entry.name]),
  );
  return {
    ...presentNode(node, access, rights),
    mediaContent: mediaRow
      ? {
          duration: mediaRow.duration,
          width: mediaRow.width,
          height: mediaRow.height,
          size: mediaRow.size,
          fps: mediaRow.fps,
        }
      : null,
    edl,
    edlSources: sourceIds.map((mediaId) => ({ mediaId, name: names.get(mediaId) ?? '' })),
  };
};
