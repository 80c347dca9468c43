import { eq } from 'drizzle-orm';
import { nodes } from '../src/modules/nodes/tables.ts';
import { webhookDeliveries } from '../src/modules/webhooks/tables.ts';
import { call, keep, multipart, type WalkStep, type WalkWorld } from './audit-walk-world.ts';
import type { Results, TestApp } from './harness.ts';

const path = (w: WalkWorld, inner: string) => `/${w.account.name}${inner}`;

/** Edge servers, arrivals, the ingest queue, the media tree, webhooks and uploads. */
export const MEDIA_STEPS: WalkStep[] = [
  {
    op: 'postUsersByIdEdgeServers',
    run: async (_t, w, made) =>
      keep(
        made,
        'edge',
        await w.admin.client.post(`/api/users/${w.adminId}/edgeServers`, { name: 'Walk new edge' }),
      ),
  },
  {
    op: 'postEdgeServersById',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/edgeServers/${made.edge}`, { id: made.edge, name: 'Walk edge 2' }),
  },
  {
    op: 'postEdgeServersByIdSupportConnection',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/edgeServers/${made.edge}/supportConnection`, { supportConnection: false }),
  },
  {
    op: 'postEdgeServersByIdActionsByAction',
    run: (_t, w, made) => w.admin.client.post(`/api/edgeServers/${made.edge}/actions/machineLoad`),
  },
  {
    op: 'postEdgeServersByIdServices',
    run: async (_t, w, made) =>
      keep(
        made,
        'service',
        await w.admin.client.post(`/api/edgeServers/${made.edge}/services`, {
          edgeServerId: made.edge,
          name: 'Walk service',
          typeId: 'FileIngestService',
        }),
      ),
  },
  {
    op: 'postServicesById',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/services/${made.service}`, {
        id: made.service,
        edgeServerId: made.edge,
        name: 'Walk service 2',
      }),
  },
  {
    op: 'postServicesByIdActionsByAction',
    run: (_t, w, made) => w.admin.client.post(`/api/services/${made.service}/actions/restart`),
  },
  {
    op: 'postServicesByIdEndpoints',
    run: async (_t, w, made) =>
      keep(
        made,
        'endpoint',
        await w.admin.client.post(`/api/services/${made.service}/endpoints`, {
          name: 'Walk endpoint',
          typeId: 'LocalFolderEndpoint',
          options: { path: '/walk' },
        }),
      ),
  },
  {
    op: 'postEndpointsById',
    run: (_t, w, made) => w.admin.client.post(`/api/endpoints/${made.endpoint}`, { name: 'Walk endpoint 2' }),
  },
  {
    op: 'postEndpointsByIdActionsByAction',
    run: (_t, w, made) => w.admin.client.post(`/api/endpoints/${made.endpoint}/actions/disable`),
  },
  {
    op: 'postEndpointsByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/endpoints/${made.endpoint}/trash`),
  },
  {
    op: 'postServicesByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/services/${made.service}/trash`),
  },
  {
    op: 'postEdgeServersByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/edgeServers/${made.edge}/trash`),
  },
  {
    op: 'postAccountsByIdArrivalsFolders',
    run: async (_t, w, made) =>
      keep(
        made,
        'folder',
        await w.admin.client.post(`/api/accounts/${w.account.id}/arrivalsFolders`, { name: 'Walk folder 2' }),
      ),
  },
  {
    op: 'postArrivalsFoldersById',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/arrivalsFolders/${made.folder}`, { id: made.folder, name: 'Walk folder 3' }),
  },
  {
    op: 'postArrivalsFoldersByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/arrivalsFolders/${made.folder}/trash`),
  },
  {
    op: 'postArrivalsFolderEndpointAssignments',
    run: (_t, w) =>
      w.admin.client.post('/api/arrivalsFolderEndpointAssignments', {
        endpointId: w.spareEndpoint.id,
        arrivalsFolderId: w.folder.id,
      }),
  },
  {
    op: 'postArrivalsFolderEndpointAssignmentsTrash',
    run: (_t, w) =>
      w.admin.client.post('/api/arrivalsFolderEndpointAssignments/trash', {
        endpointId: w.spareEndpoint.id,
        arrivalsFolderId: w.folder.id,
      }),
  },
  ...(
    [
      ['EdgeServers', 'edgeServers', (w: WalkWorld) => w.edge.id],
      ['ArrivalsFolders', 'arrivalsFolders', (w: WalkWorld) => w.folder.id],
      ['Accounts', 'accounts', (w: WalkWorld) => w.account.id],
      ['Endpoints', 'endpoints', (w: WalkWorld) => w.fileEndpoint.id],
    ] as const
  ).map(([name, segment, id]) => ({
    op: `post${name}ByIdIngestQueueItemRanks`,
    run: (_t: TestApp, w: WalkWorld) =>
      w.admin.client.post(`/api/${segment}/${id(w)}/ingestQueueItemRanks`, [
        { queueItemId: w.items.queued.id, rank: 1 },
      ]),
  })),
  {
    op: 'postIngestQueueItemsById',
    run: (_t, w) =>
      w.admin.client.post(`/api/ingestQueueItems/${w.items.actionRequired.id}`, {
        id: w.items.actionRequired.id,
        reelName: 'R1',
      }),
  },
  {
    op: 'postIngestQueueItems',
    run: (_t, w) =>
      w.admin.client.post('/api/ingestQueueItems', [{ id: w.items.failed.id, status: 'queued' }]),
  },
  {
    op: 'postIngestQueueItemsByIdTrash',
    run: (_t, w) => w.admin.client.post(`/api/ingestQueueItems/${w.items.trashed.id}/trash`),
  },
  {
    op: 'postIngestQueueItemsTrash',
    run: (_t, w) =>
      w.admin.client.post('/api/ingestQueueItems/trash', {
        ids: [`${w.edge.id}:${w.fileEndpoint.id}:${w.items.batch.queueId}`],
        mode: 'trash',
      }),
  },
  {
    op: 'postUnprocessedFiles',
    run: (_t, w) =>
      w.admin.client.post('/api/unprocessedFiles', [{ id: w.unprocessed.forced.id, forced: true }]),
  },
  {
    op: 'postUnprocessedFilesTrash',
    run: (_t, w) => w.admin.client.post('/api/unprocessedFiles/trash', [w.unprocessed.trashed.id]),
  },
  {
    op: 'postNodes',
    run: (_t, w) =>
      call(w.admin.client, {
        url: '/api/nodes',
        body: { parentPath: path(w, '/Walk'), type: 'folder', name: 'Sub' },
      }),
  },
  {
    op: 'postNodesTransferType',
    run: (_t, w) =>
      call(w.admin.client, {
        url: '/api/nodesTransferType',
        body: { srcPath: path(w, '/Walk/Sub'), dstPath: path(w, '/Elsewhere') },
      }),
  },
  {
    op: 'postNodesTransfer',
    run: (_t, w) =>
      call(w.admin.client, {
        url: '/api/nodesTransfer',
        body: { srcPath: path(w, '/Walk/Sub'), dstPath: path(w, '/Elsewhere'), operation: 'move' },
      }),
  },
  {
    op: 'postMedia',
    run: async (_t, w, made) => {
      const answer = await call(w.admin.client, {
        url: '/api/media',
        body: {
          parentPath: path(w, '/Walk'),
          type: 'sequence',
          name: 'Walk cut',
          edl: { fps: 25, events: [{ mediaId: w.media.id, inFrame: 0, outFrame: 10 }] },
        },
      });
      made.cut = (answer.body as Results<{ mediaId: number }>).results.mediaId;
      return answer;
    },
  },
  {
    op: 'postMediaByIdData',
    run: (_t, w, made) =>
      call(w.admin.client, {
        url: `/api/media/${made.cut}/data?path=${encodeURIComponent(path(w, '/Walk/Walk cut'))}`,
        body: { edl: { fps: 25, events: [{ mediaId: w.media.id, inFrame: 0, outFrame: 20 }] } },
      }),
  },
  {
    op: 'postEdlsByIdRender',
    run: (_t, w, made) =>
      call(w.admin.client, { url: `/api/edls/${made.cut}/render`, body: { accountId: w.account.id } }),
  },
  {
    op: 'putMediaByIdSubtitlesByLanguage',
    run: (_t, w) =>
      call(w.admin.client, {
        method: 'PUT',
        url: `/api/media/${w.media.id}/subtitles/en`,
        body: 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n',
        headers: { 'content-type': 'text/vtt' },
      }),
  },
  {
    op: 'deleteMediaByIdSubtitlesByLanguage',
    run: (_t, w) => call(w.admin.client, { method: 'DELETE', url: `/api/media/${w.media.id}/subtitles/en` }),
  },
  {
    op: 'postMediaUpdate',
    run: async (t, w) => {
      const [node] = await t.ctx.db.select({ id: nodes.id }).from(nodes).where(eq(nodes.mediaId, w.media.id));
      return call(w.admin.client, {
        url: `/api/mediaUpdate?format=json&accountId=${w.account.id}&dryRun=true`,
        body: `id,name\n${node?.id},Interview\n`,
        headers: { 'content-type': 'text/csv' },
      });
    },
  },
  {
    op: 'postAccountsByIdUploads',
    run: (_t, w) =>
      multipart(w, `/api/accounts/${w.account.id}/uploads?uploadname=Notes`, {
        fileName: 'notes.txt',
        content: 'Walk',
      }),
  },
  {
    op: 'postAccountsByIdMetadataMappings',
    run: (_t, w) =>
      multipart(w, `/api/accounts/${w.account.id}/metadataMappings?uploadname=Reels`, {
        fileName: 'reels.csv',
        content: 'reel\n1\n',
        type: 'text/csv',
      }),
  },
  {
    op: 'postAccountsByIdWebhooks',
    run: async (_t, w, made) =>
      keep(
        made,
        'webhook',
        await w.admin.client.post(`/api/accounts/${w.account.id}/webhooks`, {
          url: 'https://hooks.example.com/walk',
          events: ['node.created'],
        }),
      ),
  },
  {
    op: 'postWebhooks',
    run: (_t, w) =>
      w.admin.client.post('/api/webhooks', {
        url: 'https://hooks.example.com/cloud',
        events: ['user.created'],
      }),
  },
  {
    op: 'postWebhooksById',
    run: (_t, w, made) => w.admin.client.post(`/api/webhooks/${made.webhook}`, { description: 'Walk' }),
  },
  {
    op: 'postWebhooksByIdTest',
    run: (_t, w, made) => w.admin.client.post(`/api/webhooks/${made.webhook}/test`),
  },
  {
    op: 'postWebhooksByIdRotateSecret',
    run: (_t, w, made) => w.admin.client.post(`/api/webhooks/${made.webhook}/rotateSecret`),
  },
  {
    op: 'postWebhookDeliveriesByIdRetry',
    prepare: async (t, _w, made) => {
      const [delivery] = await t.ctx.db
        .insert(webhookDeliveries)
        .values({
          webhookId: made.webhook as number,
          messageId: 'msg_walk',
          type: 'ping',
          body: '{}',
          status: 'failed',
        })
        .returning({ id: webhookDeliveries.id });
      made.delivery = delivery?.id as number;
    },
    run: (_t, w, made) => w.admin.client.post(`/api/webhookDeliveries/${made.delivery}/retry`),
  },
  {
    op: 'postWebhooksByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/webhooks/${made.webhook}/trash`),
  },
];
