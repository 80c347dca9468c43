import type { IngestQueueItem } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { mergeQueueUpdate } from './merge-queue.ts';

const item = (id: number, fields: Partial<IngestQueueItem> = {}): IngestQueueItem => ({
  id,
  status: 'queued',
  isStream: false,
  isSchedule: false,
  endpointId: 1,
  endpoint: null,
  liveNode: null,
  edgeServerId: 1,
  serviceGroupId: null,
  serviceGroupServices: [],
  accountId: 1,
  arrivalsFolderId: 1,
  queueId: `q${id}`,
  reelName: '',
  diskLabel: '',
  clipName: `clip ${id}`,
  scheduledStartTime: null,
  priority: 0,
  rank: id,
  whenQueued: '2026-01-01T00:00:00.000Z',
  whenStarted: null,
  whenFinished: null,
  duration: null,
  fileSize: null,
  proxyWidth: null,
  proxyHeight: null,
  progress: null,
  error: null,
  forced: false,
  sourceName: `file${id}.mov`,
  ...fields,
});

const page = (items: IngestQueueItem[], version = 10) => ({
  results: items,
  total: items.length,
  channel: 'accounts/1/ingestQueue',
  version,
});

describe('merging the changes since a queue page version', () => {
  it('replaces a changed item in place and takes the newer version', () => {
    const merged = mergeQueueUpdate(
      page([item(1), item(2)]),
      page([item(2, { duration: 12 })], 14),
      [2],
      'rank',
    );
    expect(merged?.results.map((i) => i.duration)).toEqual([null, 12]);
    expect(merged?.version).toBe(14);
  });

  it('asks for a refetch when a changed item is not on the page (new, or on another page)', () => {
    expect(mergeQueueUpdate(page([item(1)]), page([item(3)], 12), [3], 'rank')).toBeNull();
  });

  it('asks for a refetch when an item on the page no longer matches the filters', () => {
    expect(mergeQueueUpdate(page([item(1), item(2)]), page([], 12), [2], 'rank')).toBeNull();
  });

  it('asks for a refetch when the sort value of an item changed', () => {
    expect(
      mergeQueueUpdate(page([item(1), item(2)]), page([item(2, { status: 'failed' })], 12), [2], 'status'),
    ).toBeNull();
    expect(
      mergeQueueUpdate(page([item(1), item(2)]), page([item(2, { clipName: 'renamed' })], 12), [2], 'rank'),
    ).not.toBeNull();
    expect(
      mergeQueueUpdate(
        page([item(1), item(2)]),
        page([item(2, { clipName: 'renamed' })], 12),
        [2],
        'clipName',
      ),
    ).toBeNull();
  });

  it('replaces an item whose status changed in place when it still matches the filters, without a refetch', () => {
    const before = page([item(1), item(2, { status: 'ingesting', progress: 40 })]);
    const merged = mergeQueueUpdate(
      before,
      page([item(2, { status: 'ingested', progress: null, proxyWidth: 640, proxyHeight: 360 })], 15),
      [2],
      'rank',
    );
    expect(merged?.results.map((i) => i.status)).toEqual(['queued', 'ingested']);
    expect(merged?.results[0]).toBe(before.results[0]);
    expect(merged?.version).toBe(15);
  });

  it('asks for a refetch when an item on the page was deleted (a deleted item is still answered)', () => {
    expect(
      mergeQueueUpdate(page([item(1), item(2)]), page([item(2, { status: 'deleted' })], 12), [2], 'rank'),
    ).toBeNull();
  });

  it('ignores a change to an item that is neither on the page nor in the filter', () => {
    expect(mergeQueueUpdate(page([item(1)]), page([], 12), [9], 'rank')?.results).toHaveLength(1);
  });
});
