import type { IngestQueueItem } from '@media/contract';

type Page = { results: IngestQueueItem[]; total: number; channel: string; version: number };

const sortValue = (item: IngestQueueItem, sortKey: string) =>
  JSON.stringify((item as Record<string, unknown>)[sortKey] ?? null);

/**
 * Merges the items changed since a page's version (fetched with sinceVersion and the page's own filters)
 * into the page, item by item (spec2 §4 Realtime): a changed item still on the page replaces its row in place,
 * a new status included, since the changes were read with the page's own filters. Answers null when the page
 * must be fetched again: a changed item that belongs to the filter but is not on the page (new, or on another
 * page), an item on the page that no longer matches or was deleted (the rows below it move up), or an item
 * whose sort value changed, so that its place may have moved.
 */
export const mergeQueueUpdate = (
  page: Page,
  changed: Page,
  modifiedIds: readonly number[],
  sortKey: string,
): Page | null => {
  const fresh = new Map(changed.results.map((item) => [item.id, item]));
  const onPage = new Map(page.results.map((item) => [item.id, item]));
  const ids = new Set([...modifiedIds, ...fresh.keys()]);
  for (const id of ids) {
    const before = onPage.get(id);
    const after = fresh.get(id);
    if (!before && !after) continue;
    if (!before || !after) return null;
    // An incremental read answers deleted items whatever the filters: the item has left the page.
    if (after.status === 'deleted' && before.status !== 'deleted') return null;
    if (sortValue(before, sortKey) !== sortValue(after, sortKey)) return null;
  }
  return {
    ...page,
    results: page.results.map((item) => fresh.get(item.id) ?? item),
    version: Math.max(page.version, changed.version),
  };
};
