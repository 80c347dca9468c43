import { MANUAL_STATUS_CHANGES, type QueueItemFacts } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { allowsAction, commonStatusChanges, type QueueActionRules, statusChangesOf } from './action-rules.ts';

const served: QueueActionRules = {
  statusChanges: Object.fromEntries(Object.entries(MANUAL_STATUS_CHANGES).map(([k, v]) => [k, [...v]])),
  actions: ['start', 'stop', 'reschedule', 'status', 'abort'],
};
const file = (status: QueueItemFacts['status']): QueueItemFacts => ({
  status,
  isStream: false,
  isSchedule: false,
});

describe('the queue actions come from …/ingestQueueItemActions', () => {
  it("offers the server's status changes for the item's status", () => {
    expect(statusChangesOf(served, file('failed'))).toEqual(['queued', 'actionRequired']);
    expect(statusChangesOf(served, file('ingesting'))).toEqual(['abort']);
    expect(statusChangesOf(served, file('deleted'))).toEqual([]);
  });

  it('follows the answer, not a table of its own: a narrower answer offers less', () => {
    const narrower = { ...served, statusChanges: { ...served.statusChanges, failed: ['queued'] } };
    expect(statusChangesOf(narrower, file('failed'))).toEqual(['queued']);
    expect(statusChangesOf({ ...served, statusChanges: {} }, file('failed'))).toEqual([]);
  });

  it('offers nothing while the answer loads, nor for stream items', () => {
    expect(statusChangesOf(undefined, file('failed'))).toEqual([]);
    expect(statusChangesOf(served, { status: 'failed', isStream: true, isSchedule: false })).toEqual([]);
  });

  it('ignores a status the client does not know', () => {
    expect(
      statusChangesOf({ ...served, statusChanges: { failed: ['queued', 'melted'] } }, file('failed')),
    ).toEqual(['queued']);
  });

  it('allows an action only when the answer lists it', () => {
    expect(allowsAction(served, 'start')).toBe(true);
    expect(allowsAction({ ...served, actions: ['status'] }, 'start')).toBe(false);
    expect(allowsAction(undefined, 'start')).toBe(false);
  });

  it('offers for a selection the statuses every selected item may take, without abort', () => {
    type Item = Parameters<typeof commonStatusChanges>[1][number];
    const items = [{ status: 'failed' }, { status: 'missing' }] as Item[];
    const facts = (item: Item) => file(item.status);
    expect(commonStatusChanges(served, items, facts)).toEqual(['queued', 'actionRequired']);
    expect(commonStatusChanges(served, [...items, { status: 'ingested' } as Item], facts)).toEqual([
      'queued',
    ]);
    expect(commonStatusChanges(served, [{ status: 'ingesting' } as Item], facts)).toEqual([]);
    expect(commonStatusChanges(served, [], facts)).toEqual([]);
  });
});
