import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_EDGE_ADVANCED_OPTIONS, type StatusItem } from '@media/contract';
import { EdgeAgent } from '@media/edge-agent';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { media, nodes } from '../src/modules/nodes/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { buildTestApp, makeWorld, type Results } from './harness.ts';

// The world of the real ingest tests (agent-ingest*.test.ts): a listening app, an edge server with a file
// ingest service, endpoints watching temporary folders, and real agents calling in over HTTP.

export const one = <T>(rows: T[]): T => {
  const [row] = rows;
  if (!row) throw new Error('expected a row');
  return row;
};

export type Ffprobe = {
  format: { duration: string; format_name?: string };
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
  }[];
};

/** ffprobe's own reading of a file. */
export const ffprobe = (file: string): Ffprobe =>
  JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]).toString(),
  ) as Ffprobe;

export const videoOf = (probe: Ffprobe) => probe.streams.find((s) => s.codec_type === 'video');

/** A test video (H.264, AAC): `seconds` of testsrc2 at `size` and `rate`, with a sine tone unless `audio` is false. */
export const makeClip = (
  file: string,
  options: {
    seconds: number;
    size?: string;
    rate?: number;
    audio?: boolean;
    preset?: string;
    /** The MP4 index first. */
    faststart?: boolean;
  },
) =>
  execFileSync('ffmpeg', [
    ...[
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${options.size ?? '320x240'}:rate=${options.rate ?? 25}`,
    ],
    ...(options.audio === false ? [] : ['-f', 'lavfi', '-i', 'sine', '-c:a', 'aac']),
    ...['-t', String(options.seconds), '-c:v', 'libx264', '-preset', options.preset ?? 'ultrafast'],
    ...(options.faststart ? ['-movflags', '+faststart'] : []),
    file,
  ]);

export const makeIngestWorld = async (name: string, env: Record<string, string> = {}) => {
  const t = await buildTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  const cloudUrl = `http://127.0.0.1:${address.port}`;
  const w = await makeWorld(t);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const token = `agent-token-of-${name}-0123456789`.slice(0, 60);
  const owner = await makeUser(t.ctx.db);
  // An edge server of a user lands media only in accounts its owner manages (issue 30).
  await grantAccountAccess(t.ctx.db, owner.id, w.account.id, 'Account Manager');
  const edge = one(
    await t.ctx.db
      .insert(edgeServers)
      .values({
        name: `Edge of ${name}`,
        userId: owner.id,
        advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
        agentTokenHash: sha256(token),
      })
      .returning(),
  );
  const service = one(
    await t.ctx.db
      .insert(services)
      .values({ edgeServerId: edge.id, name: 'Files', typeId: 'FileIngestService', serviceGroupId: 0 })
      .returning(),
  );
  const agents: EdgeAgent[] = [];

  /** An endpoint of the edge watching a new folder `work/{folder}`, feeding the world's account. */
  const endpoint = async (
    folder: string,
    values: Partial<typeof endpoints.$inferInsert> = {},
  ): Promise<{ id: number; dir: string }> => {
    const dir = path.join(work, folder);
    fs.mkdirSync(dir, { recursive: true });
    const row = one(
      await t.ctx.db
        .insert(endpoints)
        .values({
          serviceId: service.id,
          name: `Watch ${folder}`,
          typeId: 'LocalFolderEndpoint',
          accountId: w.account.id,
          options: { path: dir },
          online: true,
          ...values,
        })
        .returning(),
    );
    return { id: row.id, dir };
  };

  /**
   * A real agent of the edge (stopped at close); agents sharing `state` share their work and upload state.
   * `through` is another address of the cloud (a proxy of the test's).
   */
  const agent = (state = 'state', through = cloudUrl) => {
    const made = new EdgeAgent({
      cloudUrl: through,
      token,
      allowedRoots: [work],
      settleMs: 0,
      scanIntervalMs: 0,
      stateDir: path.join(work, state),
    });
    agents.push(made);
    return made;
  };

  /** Two rounds (register, then take up) and the end of every ingest they started. */
  const round = async (running: EdgeAgent) => {
    await running.tick();
    await running.tick();
    await running.idle();
  };

  const itemOf = async (endpointId: number, sourceName: string) =>
    one(
      await t.ctx.db
        .select()
        .from(ingestQueueItems)
        .where(and(eq(ingestQueueItems.sourceName, sourceName), eq(ingestQueueItems.endpointId, endpointId))),
    );

  /** The node an item made, with its media; undefined when it made none. */
  const nodeOf = async (itemId: number) => {
    const rows = await t.ctx.db
      .select({ node: nodes, media })
      .from(nodes)
      .innerJoin(media, eq(media.id, nodes.mediaId))
      .where(eq(nodes.accountId, w.account.id));
    return rows.find((r) => r.node.metadata.ingestQueueItemId === String(itemId));
  };

  /** The node an item made and its proxy as served to a user of the account, written to a file. */
  const servedProxy = async (itemId: number) => {
    const row = await nodeOf(itemId);
    if (!row) throw new Error(`no node for item ${itemId}`);
    const response = await w.editor.client.request({
      method: 'GET',
      url: `/api/media/${row.media.id}/content`,
      headers: { range: 'bytes=0-' },
    });
    expect([200, 206]).toContain(response.status);
    const file = path.join(work, `served-${itemId}.mp4`);
    fs.writeFileSync(file, response.raw.rawPayload);
    return { ...row, file };
  };

  /** The endpoint of the world's account named `name` as GET /api/accounts/{id}/status shows it. */
  const endpointStatus = async (name: string) => {
    const answer = await w.admin.client.get<Results<StatusItem[]>>(`/api/accounts/${w.account.id}/status`);
    return answer.body.results.find((item) => item.type === 'Endpoint' && item.name === name);
  };

  const close = async () => {
    for (const running of agents) await running.stop();
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  };

  return {
    t,
    w,
    cloudUrl,
    work,
    token,
    edgeId: edge.id,
    serviceId: service.id,
    endpoint,
    agent,
    round,
    itemOf,
    nodeOf,
    servedProxy,
    endpointStatus,
    close,
  };
};

export type IngestWorld = Awaited<ReturnType<typeof makeIngestWorld>>;
