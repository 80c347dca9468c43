import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_STATUSES, type EndpointStatus } from '../edge/edge.ts';
import {
  canAbort,
  canChangeStatus,
  canControl,
  canEdit,
  canMonitor,
  canSchedule,
  canSendToTop,
  canStartStream,
  canStopStream,
  canTrash,
  FIRST_RANK,
  hasLog,
  INGEST_FILTER_KINDS,
  INGEST_LOOKUP_PAGE_SIZE,
  INGEST_STATUS_WORDS,
  INGEST_STATUSES,
  type IngestStatus,
  ingestQueueQuerySchema,
  ingestTrashSchema,
  isPlayable,
  MANUAL_STATUS_CHANGES,
  manualStatusChanges,
  monitoredNode,
  type QueueItemFacts,
  rankEntrySchema,
  schedulePriority,
} from './ingest.ts';

const status = fc.constantFrom(...INGEST_STATUSES);
const endpointStatus = fc.option(fc.constantFrom(...ENDPOINT_STATUSES), { nil: undefined });
const facts = fc.record({
  status,
  isStream: fc.boolean(),
  isSchedule: fc.boolean(),
  endpointStatus,
});
const file = (s: IngestStatus): QueueItemFacts => ({ status: s, isStream: false, isSchedule: false });
const stream = (s: IngestStatus, endpoint?: EndpointStatus): QueueItemFacts => ({
  status: s,
  isStream: true,
  isSchedule: false,
  endpointStatus: endpoint,
});
const schedule = (s: IngestStatus): QueueItemFacts => ({ status: s, isStream: true, isSchedule: true });

describe('manual status changes (spec2 §4)', () => {
  it('is the table of the spec, word for word', () => {
    expect(MANUAL_STATUS_CHANGES).toEqual({
      queued: ['actionRequired'],
      ingested: ['queued'],
      failed: ['queued', 'actionRequired'],
      missing: ['queued', 'actionRequired'],
      duplicated: ['queued'],
      actionRequired: ['queued'],
      ingesting: ['abort'],
      deleted: [],
      unknown: [],
    });
    expect(Object.keys(MANUAL_STATUS_CHANGES).sort()).toEqual([...INGEST_STATUSES].sort());
  });

  it('lets a file change as the table says', () => {
    expect(canChangeStatus(file('queued'), 'actionRequired')).toBe(true);
    expect(canChangeStatus(file('queued'), 'ingested')).toBe(false);
    expect(canChangeStatus(file('failed'), 'actionRequired')).toBe(true);
    expect(canChangeStatus(file('ingesting'), 'abort')).toBe(true);
    expect(canChangeStatus(file('ingesting'), 'queued')).toBe(false);
    expect(canChangeStatus(file('deleted'), 'queued')).toBe(false);
    expect(canChangeStatus(file('unknown'), 'queued')).toBe(false);
  });

  it('never lets a stream change status by hand', () => {
    fc.assert(
      fc.property(facts, fc.constantFrom(...INGEST_STATUSES, 'abort' as const), (item, to) => {
        const streamItem = { ...item, isStream: true };
        expect(manualStatusChanges(streamItem)).toEqual([]);
        expect(canChangeStatus(streamItem, to)).toBe(false);
      }),
    );
  });

  it('for files, allows exactly the changes of the table, never to the same status, deleted or unknown', () => {
    fc.assert(
      fc.property(facts, fc.constantFrom(...INGEST_STATUSES, 'abort' as const), (item, to) => {
        const fileItem = { ...item, isStream: false };
        expect(canChangeStatus(fileItem, to)).toBe(MANUAL_STATUS_CHANGES[item.status].includes(to));
        if (canChangeStatus(fileItem, to)) {
          expect(to).not.toBe(item.status);
          expect(['deleted', 'unknown', 'ingesting']).not.toContain(to);
        }
      }),
    );
  });
});

describe('rules on queue items (spec2 §4)', () => {
  it('trash: files in actionRequired, duplicated, failed or ingested; streams that are schedules, failed or ingested', () => {
    const trashableFiles = INGEST_STATUSES.filter((s) => canTrash(file(s)));
    expect(trashableFiles.sort()).toEqual(['actionRequired', 'duplicated', 'failed', 'ingested']);
    const trashableStreams = INGEST_STATUSES.filter((s) => canTrash(stream(s)));
    expect(trashableStreams.sort()).toEqual(['failed', 'ingested']);
    expect(INGEST_STATUSES.every((s) => canTrash(schedule(s)))).toBe(true);
  });

  it('send to top: files in queued, actionRequired or duplicated, never streams', () => {
    expect(INGEST_STATUSES.filter((s) => canSendToTop(file(s))).sort()).toEqual([
      'actionRequired',
      'duplicated',
      'queued',
    ]);
    fc.assert(fc.property(facts, (item) => !canSendToTop({ ...item, isStream: true })));
  });

  it('start: a stream in actionRequired whose endpoint is not disabled, in error or in warning', () => {
    expect(canStartStream(stream('actionRequired'))).toBe(true);
    expect(canStartStream(stream('actionRequired', 'ok'))).toBe(true);
    for (const bad of ['disabled', 'error', 'warning'] as const)
      expect(canStartStream(stream('actionRequired', bad))).toBe(false);
    expect(canStartStream(file('actionRequired'))).toBe(false);
    fc.assert(
      fc.property(facts, (item) => {
        const expected =
          item.isStream &&
          item.status === 'actionRequired' &&
          !['disabled', 'error', 'warning'].includes(item.endpointStatus ?? 'ok');
        expect(canStartStream(item)).toBe(expected);
      }),
    );
  });

  it('stop: a stream that is ingesting; abort: a file that is ingesting', () => {
    fc.assert(
      fc.property(facts, (item) => {
        expect(canStopStream(item)).toBe(item.isStream && item.status === 'ingesting');
        expect(canAbort(item)).toBe(!item.isStream && item.status === 'ingesting');
        expect(canStopStream(item) && canAbort(item)).toBe(false);
      }),
    );
  });

  it('edit: an item in actionRequired or a schedule; schedule: from an actionRequired stream or a schedule', () => {
    expect(canEdit(file('actionRequired'))).toBe(true);
    expect(canEdit(file('queued'))).toBe(false);
    expect(canEdit(schedule('queued'))).toBe(true);
    expect(canSchedule(stream('actionRequired'))).toBe(true);
    expect(canSchedule(stream('ingesting'))).toBe(false);
    expect(canSchedule(file('actionRequired'))).toBe(false);
    expect(canSchedule(schedule('failed'))).toBe(true);
    fc.assert(
      fc.property(facts, (item) => {
        expect(canEdit(item)).toBe(item.status === 'actionRequired' || item.isSchedule);
        // Whatever can be scheduled can be edited.
        if (canSchedule(item)) expect(canEdit(item)).toBe(true);
      }),
    );
  });

  it('log: failed, ingesting or ingested items', () => {
    expect(INGEST_STATUSES.filter((s) => hasLog(file(s))).sort()).toEqual([
      'failed',
      'ingested',
      'ingesting',
    ]);
    fc.assert(fc.property(facts, (item) => hasLog(item) === hasLog({ ...item, isStream: !item.isStream })));
  });

  it('monitor: a known endpoint type, a queue item and recording on; control unless autoCapture is ondemand', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.nat(), { nil: null }),
        fc.boolean(),
        (known, queueItemId, recording) => {
          expect(canMonitor({ endpointTypeKnown: known, queueItemId, recording })).toBe(
            known && queueItemId !== null && recording,
          );
        },
      ),
    );
    expect(canMonitor({ endpointTypeKnown: true, queueItemId: 0, recording: true })).toBe(true);
    const liveNode = { id: 7, mediaId: 9, path: '/Arrivals/Live/Match', accountName: 'news' };
    const endpoint = {
      id: 1,
      name: 'Pitch',
      serviceId: 1,
      category: 'stream' as const,
      status: 'ok' as const,
      controllable: true,
      recording: true,
    };
    expect(monitoredNode({ id: 3, endpoint, liveNode })).toBe(liveNode);
    expect(monitoredNode({ id: 3, endpoint: { ...endpoint, recording: false }, liveNode })).toBeNull();
    expect(monitoredNode({ id: 3, endpoint: { ...endpoint, category: 'none' }, liveNode })).toBeNull();
    expect(monitoredNode({ id: 3, endpoint: null, liveNode })).toBeNull();
    expect(monitoredNode({ id: 3, endpoint, liveNode: null })).toBeNull();
    expect(canControl({ autoCapture: 'ondemand' })).toBe(false);
    expect(canControl({ autoCapture: 'always' })).toBe(true);
    expect(canControl({})).toBe(true);
    fc.assert(
      fc.property(fc.string(), (mode) => canControl({ autoCapture: mode }) === (mode !== 'ondemand')),
    );
  });

  it('priority: the negative of the scheduled start time in epoch seconds', () => {
    expect(schedulePriority('2030-01-02T03:04:05.000Z')).toBe(-1893553445);
    expect(schedulePriority(new Date(1000))).toBe(-1);
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true }), (date) => {
        expect(schedulePriority(date)).toBe(-Math.floor(date.getTime() / 1000));
        expect(schedulePriority(date.toISOString())).toBe(schedulePriority(date));
      }),
    );
    // A later start has a lower priority.
    fc.assert(
      fc.property(fc.nat(4_000_000_000), fc.nat(4_000_000_000), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(schedulePriority(new Date(early * 1000))).toBeGreaterThanOrEqual(
          schedulePriority(new Date(late * 1000)),
        );
      }),
    );
  });

  it('playable when both proxy dimensions are set', () => {
    expect(isPlayable({ proxyWidth: 640, proxyHeight: 360 })).toBe(true);
    expect(isPlayable({ proxyWidth: 640, proxyHeight: null })).toBe(false);
    expect(isPlayable({ proxyWidth: null, proxyHeight: null })).toBe(false);
  });

  it('constants of spec2 §9', () => {
    expect(INGEST_LOOKUP_PAGE_SIZE).toBe(100);
    expect(FIRST_RANK).toBe(1);
  });
});

describe('queue query and bodies', () => {
  it("accepts any '|' list of statuses and kinds as filters, and refuses anything else", () => {
    const token = fc.constantFrom(...INGEST_STATUSES, ...INGEST_FILTER_KINDS);
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 8 }), (tokens) => {
        expect(ingestQueueQuerySchema.safeParse({ filters: tokens.join('|') }).success).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 4 }),
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter(
            (s) =>
              !s.includes('|') && !([...INGEST_STATUSES, ...INGEST_FILTER_KINDS] as string[]).includes(s),
          ),
        (tokens, bad) => {
          const result = ingestQueueQuerySchema.safeParse({ filters: [...tokens, bad].join('|') });
          expect(result.success).toBe(false);
          expect(result.error?.issues[0]?.message).toBe('Unknown filter');
        },
      ),
    );
    expect(ingestQueueQuerySchema.parse({})).toMatchObject({
      filters: '',
      offset: 0,
      pageSize: INGEST_LOOKUP_PAGE_SIZE,
      sortKey: 'rank',
      sortDirection: 1,
    });
    expect(ingestQueueQuerySchema.safeParse({ filters: 'queued||streams' }).success).toBe(false);
    expect(ingestQueueQuerySchema.safeParse({ sortDirection: '0' }).success).toBe(false);
    expect(ingestQueueQuerySchema.parse({ sortDirection: '-1', sinceVersion: '12' })).toMatchObject({
      sortDirection: -1,
      sinceVersion: 12,
    });
    expect(ingestQueueQuerySchema.safeParse({ edgesEndpointIds: '1,2,3' }).success).toBe(true);
    expect(ingestQueueQuerySchema.safeParse({ edgesEndpointIds: '1,,2' }).success).toBe(false);
  });

  it("trash ids read 'edgeServerId:endpointId:queueId'; ranks start at 1", () => {
    expect(ingestTrashSchema.parse({ ids: ['1:2:abc-1.mov'] })).toEqual({
      ids: ['1:2:abc-1.mov'],
      mode: 'trash',
    });
    expect(ingestTrashSchema.safeParse({ ids: ['1:abc'] }).success).toBe(false);
    expect(ingestTrashSchema.safeParse({ ids: [] }).success).toBe(false);
    expect(rankEntrySchema.safeParse({ queueItemId: 1, rank: FIRST_RANK }).success).toBe(true);
    expect(rankEntrySchema.safeParse({ queueItemId: 1, rank: 0 }).success).toBe(false);
  });
});

describe('ingest statuses in words (issue 18)', () => {
  it('gives every status words without a camelCase id', () => {
    for (const status of INGEST_STATUSES) expect(INGEST_STATUS_WORDS[status]).not.toMatch(/[a-z][A-Z]/);
    expect(INGEST_STATUS_WORDS.actionRequired).toBe('action required');
  });
});
