import type { StatusItem } from '../ingest/ingest.ts';

/** spec1 §2 status popover texts. */
export const STATUS_WIDGET_MESSAGES = {
  loading: 'Loading status...',
  allOk: 'Everything is OK',
  showAll: 'Show all',
  hideExpected: 'Hide expected',
} as const;

/** How far an item is indented: services under their edge server, endpoints under their service. */
const DEPTH: Record<StatusItem['type'], number> = { EdgeServer: 0, Service: 1, Endpoint: 2 };
const isProblem = (item: StatusItem) => item.status === 'error';

/**
 * The status widget's rows (spec1 §4 Status widget): only items in 'error' unless `showAll`, in the
 * status API's order (each edge server followed by its services, each service by its endpoints), each with
 * its nesting depth.
 */
export const statusWidgetRows = (items: readonly StatusItem[], showAll: boolean) =>
  items.filter((item) => showAll || isProblem(item)).map((item) => ({ item, depth: DEPTH[item.type] }));

/** How many items are in 'error' (the count on the status button). */
export const statusProblemCount = (items: readonly StatusItem[]) => items.filter(isProblem).length;
