import type { StatusItem } from '../ingest/ingest.ts';

/** spec1 §2 status popover texts. */
export const STATUS_WIDGET_MESSAGES = {
  loading: 'Loading status...',
  allOk: 'Everything is OK',
  showAll: 'Show all',
  hideExpected: 'Hide expected',
} as const;

const isProblem = (item: StatusItem) => item.status === 'error';

export type StatusWidgetRow = {
  item: StatusItem;
  /** How many of its parents are shown above it: the indentation. */
  depth: number;
  /** Its parents that are not shown (edge server, service), so a lone problem still says where it is. */
  within: string[];
};

/**
 * The status widget's rows (spec1 §4 Status widget): only items in 'error' unless `showAll`, in the
 * status API's order, which nests them (each edge server followed by its services, each service by its
 * endpoints); an item's parents are the edge server and service last seen before it.
 */
export const statusWidgetRows = (items: readonly StatusItem[], showAll: boolean): StatusWidgetRow[] => {
  const rows: StatusWidgetRow[] = [];
  let edge: StatusItem | undefined;
  let service: StatusItem | undefined;
  for (const item of items) {
    if (item.type === 'EdgeServer') [edge, service] = [item, undefined];
    if (item.type === 'Service') service = item;
    // A parent of another edge server (the link tells) is no parent: better none than a wrong one.
    const parents = (
      item.type === 'Endpoint' ? [edge, service] : item.type === 'Service' ? [edge] : []
    ).filter(
      (parent): parent is StatusItem =>
        parent !== undefined && parent.links.edgeServer === item.links.edgeServer,
    );
    if (!showAll && !isProblem(item)) continue;
    const shown = parents.filter((parent) => showAll || isProblem(parent));
    rows.push({
      item,
      depth: shown.length,
      within: parents.filter((parent) => !shown.includes(parent)).map((parent) => parent.name),
    });
  }
  return rows;
};

/** How many items are in 'error' (the count on the status button). */
export const statusProblemCount = (items: readonly StatusItem[]) => items.filter(isProblem).length;
