import type { Endpoint, IngestQueueItem } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import type { DbOrTx } from '../src/platform/db/client.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { type IngestWorld, makeIngestWorld, one } from './agent-ingest-world.ts';
import type { ErrorBody, Results, World } from './harness.ts';

/**
 * A stream ingest service on an edge server (2 s segments and the options given), an arrivals folder 'Live
 * recordings' of the account, and a way to add stream endpoints feeding it.
 */
export const addStreamService = async (
  db: DbOrTx,
  at: { accountId: number; edgeServerId: number; serviceOptions?: Record<string, string> },
) => {
  const folder = await makeArrivalsFolderRow(db, {
    accountId: at.accountId,
    name: 'Live recordings',
    typeId: 'standard',
    options: { targetFolder: 'Arrivals' },
  });
  const service = one(
    await db
      .insert(services)
      .values({
        edgeServerId: at.edgeServerId,
        name: 'Streams',
        typeId: 'StreamIngestService',
        serviceGroupId: 0,
        options: Object.fromEntries(
          Object.entries({ segmentSeconds: '2', ...at.serviceOptions }).map(([key, value]) => [
            key,
            { value },
          ]),
        ),
      })
      .returning(),
  );
  /** A stream endpoint of the service, online, feeding the arrivals folder; answers its id. */
  const stream = async (endpointName: string, typeId: string, options: Record<string, string> = {}) =>
    one(
      await db
        .insert(endpoints)
        .values({
          serviceId: service.id,
          name: endpointName,
          typeId,
          accountId: at.accountId,
          arrivalsFolderId: folder.id,
          online: true,
          options,
        })
        .returning(),
    ).id;
  return { serviceId: service.id, stream };
};

/** An ingest world whose edge has a stream ingest service (addStreamService): the stream tests' common ground. */
export const makeStreamWorld = async (name: string, serviceOptions: Record<string, string> = {}) => {
  const x: IngestWorld = await makeIngestWorld(name);
  const { db } = x.t.ctx;
  const { serviceId, stream } = await addStreamService(db, {
    accountId: x.w.account.id,
    edgeServerId: x.edgeId,
    serviceOptions,
  });

  /** The stream items of an endpoint in a status. */
  const streamItems = (endpointId: number, status: string) =>
    db
      .select()
      .from(ingestQueueItems)
      .where(
        and(
          eq(ingestQueueItems.endpointId, endpointId),
          eq(ingestQueueItems.isStream, true),
          eq(ingestQueueItems.status, status),
        ),
      );

  /** The one item an endpoint waits with for Start. */
  const waitingItem = async (endpointId: number) => {
    const [waiting] = await streamItems(endpointId, 'actionRequired');
    if (!waiting) throw new Error(`no item of endpoint ${endpointId} waits for Start`);
    return waiting;
  };

  const row = async (id: number) =>
    one(await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id)));

  /** An ingest action (start, stop...) on an item, as a person of the world asks for it. */
  const act = (client: World['admin']['client'], id: number, body: object) =>
    client.post<Results<IngestQueueItem> & ErrorBody>(`/api/ingestQueueItems/${id}`, { id, ...body });

  const endpointOf = async (id: number) =>
    (await x.w.accountManager.client.get<Results<Endpoint>>(`/api/endpoints/${id}`)).body.results;

  return { x, serviceId, stream, streamItems, waitingItem, row, act, endpointOf };
};

export type StreamWorld = Awaited<ReturnType<typeof makeStreamWorld>>;

/**
 * A recording stopped by hand lasts from its start to when the agent heard Stop: at least what the item
 * showed when Stop was asked (`seen`, less a second), at most that plus the time until the agent wrote that it
 * had stopped (its 'Recording stopped' log line), plus a second. A loaded machine hears Stop later; a
 * recording cut short or running on fails.
 */
export const expectRecordedUntilStop = (
  recordedSeconds: number,
  seen: { duration: number; at: number },
  log: string,
) => {
  const stoppedLine = log.split('\n').find((text) => text.includes('Recording stopped'));
  const stoppedAt = Date.parse(stoppedLine?.split(' ')[0] ?? '');
  expect(Number.isFinite(stoppedAt), 'the log says when the recording stopped').toBe(true);
  expect(recordedSeconds).toBeGreaterThanOrEqual(seen.duration - 1);
  expect(recordedSeconds).toBeLessThanOrEqual(seen.duration + (stoppedAt - seen.at) / 1000 + 1);
};
