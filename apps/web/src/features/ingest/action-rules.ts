import {
  INGEST_STATUSES,
  type IngestQueueItem,
  type IngestStatus,
  type ManualStatusChange,
  type QueueItemFacts,
} from '@media/contract';

/** The answer of `…/ingestQueueItemActions`: the manual status changes (spec2 §4) and the item actions. */
export type QueueActionRules = { statusChanges: Record<string, string[]>; actions: string[] };

const MANUAL = [...INGEST_STATUSES, 'abort'] as readonly string[];
const isManual = (to: string): to is ManualStatusChange => MANUAL.includes(to);

/**
 * The statuses an item may be set to by hand, as the server's rules say (none while they load); stream items
 * cannot change status by hand.
 */
export const statusChangesOf = (
  rules: QueueActionRules | undefined,
  item: QueueItemFacts,
): ManualStatusChange[] =>
  !rules || item.isStream ? [] : (rules.statusChanges[item.status] ?? []).filter(isManual);

/** Whether the server lists an item action (start, stop, reschedule, status, abort). */
export const allowsAction = (rules: QueueActionRules | undefined, action: string) =>
  rules?.actions.includes(action) ?? false;

/** The statuses every selected item may be set to (the bulk 'Set status of selected'). */
export const commonStatusChanges = (
  rules: QueueActionRules | undefined,
  items: IngestQueueItem[],
  factsOf: (item: IngestQueueItem) => QueueItemFacts,
): IngestStatus[] => {
  if (items.length === 0) return [];
  const lists = items.map((item) => statusChangesOf(rules, factsOf(item)));
  return (lists[0] ?? []).filter(
    (to): to is IngestStatus => to !== 'abort' && lists.every((list) => list.includes(to)),
  );
};
