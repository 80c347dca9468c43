import {
  type ChildOrder,
  formatCount,
  type MediaNode,
  type NodeListing,
  type NodeType,
  type SearchClause,
} from '@media/contract';

/** What one listing of GET /api/nodes asks for; the offset is the page's. */
export type ListingRequest = {
  path: string;
  childOrder: ChildOrder;
  /** Node types listed; the server's default (source, folder, sequence) when absent. */
  types?: readonly NodeType[];
  search?: readonly SearchClause[];
  createdFrom?: string | null;
  createdTo?: string | null;
};

/** The query of GET /api/nodes (spec3 §7): each search clause as JSON, repeated. */
export const listingQueryString = (request: ListingRequest, nextChildOffset: number) => {
  const query = new URLSearchParams({ path: request.path, childOrder: request.childOrder });
  if (request.types?.length) query.set('type', request.types.join(','));
  if (nextChildOffset > 0) query.set('nextChildOffset', String(nextChildOffset));
  for (const clause of request.search ?? []) query.append('search', JSON.stringify(clause));
  if (request.createdFrom) query.set('createdFrom', request.createdFrom);
  if (request.createdTo) query.set('createdTo', request.createdTo);
  return query.toString();
};

/** totalCapped: the total is a lower bound (the server counts up to TOTAL_COUNT_CAP). */
export type ListingPage = { results: NodeListing; total: number; totalCapped?: boolean; channel: string };

/** The footer of the children: '100 of 1,234', or '100 of 1,000+' when the server capped the count. */
export const childrenCountText = (shown: number, total: number, totalCapped = false) =>
  `${formatCount(shown)} of ${formatCount(Math.max(total, shown), totalCapped)}`;

/** The children of every page loaded so far, in order. */
export const childrenOf = (pages: readonly ListingPage[] | undefined): MediaNode[] =>
  (pages ?? []).flatMap((page) => page.results.children);

/** spec3 §4: after a move the sources leave the tree at once (the refetch that follows confirms it). */
export const withoutNodes = (pages: readonly ListingPage[], paths: ReadonlySet<string>): ListingPage[] =>
  pages.map((page) => {
    const children = page.results.children.filter((child) => !paths.has(child.path));
    const removed = page.results.children.length - children.length;
    return removed === 0
      ? page
      : { ...page, total: Math.max(0, page.total - removed), results: { ...page.results, children } };
  });
