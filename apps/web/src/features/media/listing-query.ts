import type { ChildOrder, MediaNode, NodeListing, NodeType, SearchClause } from '@media/contract';

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

export type ListingPage = { results: NodeListing; total: number; channel: string };

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
