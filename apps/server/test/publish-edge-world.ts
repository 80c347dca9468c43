import fs from 'node:fs';
import path from 'node:path';
import {
  API_VERSIONS,
  type NetworkNode,
  newButtonBody,
  type Phase,
  type TransferResult,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { testVideo } from '../../../packages/media-tools/src/test-media.ts';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { publishes } from '../src/modules/publishing/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { makeEdgeServerRow } from '../src/seed/demo-edge.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { makeIngestWorld } from './agent-ingest-world.ts';
import { eventually } from './harness.ts';
import { postNodes } from './nodes-world.ts';
import { createButton } from './publishing-world.ts';

/**
 * The world of the edge publish tests (publish-edge.test.ts): the real-agent world (a listening app, an edge
 * server of the account's site with its token, real agents) with a real 2 s 320x180 video at
 * /{account}/News/Interview, buttons that run on the edge server, and the agent API called with a token.
 */
export const makePublishEdgeWorld = async () => {
  const x = await makeIngestWorld('publish-edge', { WORKERS: '1' });
  const { t, w } = x;
  const { db } = t.ctx;
  // A button's location must be an edge server of the account's site.
  await db.update(edgeServers).set({ siteId: w.site.id }).where(eq(edgeServers.id, x.edgeId));
  const [edge] = await db.select().from(edgeServers).where(eq(edgeServers.id, x.edgeId));
  const edgeName = edge?.name as string;
  const otherToken = 'token-of-another-edge-server-0123456789';
  const otherEdge = await makeEdgeServerRow(db, {
    userId: edge?.userId as number,
    siteId: w.site.id,
    name: 'Another edge',
    agentTokenHash: sha256(otherToken),
  });

  const file = path.join(x.work, 'interview.mp4');
  testVideo(file, 'testsrc2=size=320x180:rate=25', { seconds: 2 });
  const key = `media/accounts/${w.account.id}/test/interview.mp4`;
  await t.ctx.storage.putStream(key, fs.createReadStream(file));
  const media = await makeMediaRow(db, {
    accountId: w.account.id,
    name: 'Interview',
    storagePath: key,
    contentType: 'video/mp4',
    width: 320,
    height: 180,
    duration: 2,
  });
  await makeNodeRow(db, { accountId: w.account.id, parentPath: '/', name: 'News', type: 'folder' });
  await makeNodeRow(db, {
    accountId: w.account.id,
    parentPath: '/News',
    name: 'Interview',
    type: 'source',
    mediaId: media.id,
  });
  const clipPath = `/${w.account.name}/News/Interview`;

  /** A button of the account that runs on the edge server: source → process → folder export [→ post]. */
  const button = async (
    name: string,
    process: { moduleId: string; options: Record<string, unknown> },
    folder: string,
    post?: Omit<NetworkNode, 'nodeLocalId'>,
  ) => {
    const body = newButtonBody({
      name,
      processModuleId: process.moduleId,
      destinationModuleId: 'folder-export',
    });
    const [phase] = body.phases as [Phase];
    for (const node of phase.phase.network.nodes) {
      if (node.moduleId === process.moduleId) node.options = process.options;
      if (node.moduleId === 'folder-export') node.options = { folder };
    }
    if (post) {
      phase.phase.network.nodes.push({ nodeLocalId: 3, ...post });
      phase.phase.network.connections.push([1, 3]);
      phase.phase.postNodes = [3];
    }
    return createButton(w.accountManager.client, 'accounts', w.account.id, {
      ...body,
      location: { type: 'edge', id: x.edgeId },
    });
  };

  /** Publishes the interview with a button (as the Editor); answers the publish's id. */
  const publish = async (buttonName: string, userPublishData?: Record<string, unknown>) => {
    const answer = await postNodes<{ results: TransferResult }>(w.editor.client, '/api/nodesTransfer', {
      srcPath: clipPath,
      dstPath: `/${w.account.name}/Publish/${buttonName}`,
      operation: 'publish',
      ...(userPublishData ? { userPublishData } : {}),
    });
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return (answer.body.results.publishIds as [number])[0];
  };

  const row = async (id: number) => {
    const [found] = await db.select().from(publishes).where(eq(publishes.id, id));
    if (!found) throw new Error(`no publish ${id}`);
    return found;
  };
  /** The publish once its run job handed it over to the edge server (or failed it). */
  const handedOver = (id: number) =>
    eventually(async () => {
      const found = await row(id);
      return found.edgeServerId !== null || found.status === 'failed' ? found : undefined;
    }, 60_000);

  /** A call of the agent API with an edge server's token (none: no authorization header). */
  const agentCall = (
    method: 'GET' | 'POST',
    url: string,
    options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/agent/${url}`,
      headers: {
        'x-api-version': API_VERSIONS.ingest,
        ...(options.token === null ? {} : { authorization: `Bearer ${options.token ?? x.token}` }),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });

  /** The notifications of the Editor who published. */
  const notifications = async () =>
    (
      await w.editor.client.get<{ results: { type: string; message: string }[] }>(
        `/api/users/${w.editor.user.id}/notifications`,
      )
    ).body.results;

  return {
    ...x,
    edgeName,
    otherEdge,
    otherToken,
    clipPath,
    sourceKey: key,
    exportsDir: (state = 'state') => path.join(x.work, state, 'exports'),
    workDir: (state = 'state') => path.join(x.work, state, 'work'),
    button,
    publish,
    row,
    handedOver,
    agentCall,
    notifications,
  };
};
export type PublishEdgeWorld = Awaited<ReturnType<typeof makePublishEdgeWorld>>;
