import type { IngestQueueItem } from '@media/contract';

type Page = { results: IngestQueueItem[]; total: number; channel: string; version: number };

const sortValue = (item: IngestQueueItem, sortKey: string) =>
  JSON.stringify((item as Record<string, unknown>)[sortKey] ?? null);

/**
 * Merges the items changed since a page's version (fetched with sinceVersion and the page's own filters)
 * into the page. Answers null when the page must be fetched again: a changed item that belongs to the
 * filter but is not on the page (new, or on another page), an item on the page that no longer matches
 * (or is gone), an item whose status changed (it may have left the filter), or an item whose sort value
 * changed, so that its place may have moved.
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
    // A new status may take the item out of the page's filters (a deleted item is still answered).
    if (before.status !== after.status) return null;
    if (sortValue(before, sortKey) !== sortValue(after, sortKey)) return null;
  }
  return {
    ...page,
    results: page.results.map((item) => fresh.get(item.id) ?? item),
    version: Math.max(page.version, changed.version),
  };
};
