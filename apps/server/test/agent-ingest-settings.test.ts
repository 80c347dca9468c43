import fs from 'node:fs';
import path from 'node:path';
import {
  type AgentConfiguration,
  API_VERSIONS,
  endpointDestinationMissing,
  type IngestSettings,
} from '@media/contract';
import type { EdgeAgent } from '@media/edge-agent';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFormats } from '../src/modules/config/tables.ts';
import { endpoints } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { accounts, workflows } from '../src/modules/organisation/tables.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, one, videoOf } from './agent-ingest-world.ts';
import { type ErrorBody, testDriver } from './harness.ts';

/**
 * What the heartbeat tells the agent of each endpoint's ingest (the format chain endpoint workflow -> arrivals
 * folder -> account, the max ingest resolution, what the folder type keeps), and real ingests that follow it:
 * a workflow's format, and an archive that keeps the source and makes no proxy (so nothing claims to play).
 */
describe(`ingest settings of endpoints (${testDriver()})`, () => {
  let x: IngestWorld;
  let agent: EdgeAgent;
  let clip: string;
  const ids: Record<string, number> = {};
  const dirs: Record<string, string> = {};

  const heartbeat = async () => {
    const response = await fetch(`${x.cloudUrl}/api/agent/heartbeat`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${x.token}`,
        'x-api-version': API_VERSIONS.ingest,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ agentVersion: 'test', endpointVersions: {} }),
    });
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: AgentConfiguration };
    return new Map(results.endpoints.map((endpoint) => [endpoint.id, endpoint]));
  };

  beforeAll(async () => {
    x = await makeIngestWorld('ingest-settings');
    const { db } = x.t.ctx;
    const accountId = x.w.account.id;
    await db.update(accounts).set({ maxVideo: '1280x720' }).where(eq(accounts.id, accountId));
    await db.insert(ingestFormats).values([
      { accountId, position: 0, format: 'NTSC_wide_360' },
      { accountId, position: 1, format: 'PAL_tall' },
    ]);
    const folder = (name: string, typeId: string, options: Record<string, string | boolean> = {}) =>
      makeArrivalsFolderRow(db, { accountId, name, typeId, options });
    const workflow = one(
      await db
        .insert(workflows)
        .values({ accountId, name: 'Square-ish', definition: JSON.stringify({ ingestFormat: 'PAL_normal' }) })
        .returning(),
    );
    const rushes = await folder('Rushes', 'standard', {
      ingestFormat: 'NTSC_wide',
      targetFolder: 'Incoming',
    });
    const made = {
      unassigned: await x.endpoint('unassigned', { accountId: null }),
      account: await x.endpoint('account'),
      rushes: await x.endpoint('rushes', { arrivalsFolderId: rushes.id }),
      workflow: await x.endpoint('workflow', { arrivalsFolderId: rushes.id, workflowId: workflow.id }),
      noProxies: await x.endpoint('no-proxies', {
        arrivalsFolderId: (await folder('Sources', 'standard', { makeProxies: false })).id,
      }),
      proxyOnly: await x.endpoint('proxy-only', {
        arrivalsFolderId: (await folder('Proxies', 'proxyOnly')).id,
      }),
      archive: await x.endpoint('archive', { arrivalsFolderId: (await folder('Vault', 'archive')).id }),
      offline: await x.endpoint('offline', { online: false }),
    };
    for (const [name, endpoint] of Object.entries(made)) {
      ids[name] = endpoint.id;
      dirs[name] = endpoint.dir;
    }
    agent = x.agent();
    clip = path.join(x.work, 'clip.mp4');
    makeClip(clip, { seconds: 2, size: '640x480' });
  });
  afterAll(() => x.close());

  it('gives each endpoint its online wish and the ingest its folder, workflow and account call for', async () => {
    const endpoints = await heartbeat();
    const ingestOf = (name: string) => endpoints.get(ids[name] ?? 0)?.ingest;
    const settings = (format: string, makeProxy: boolean, keepSource: boolean): IngestSettings => ({
      format,
      maxResolution: 1280,
      makeProxy,
      keepSource,
    });
    expect(ingestOf('unassigned')).toBeNull();
    // No folder: the account's first format, a proxy, the source stays at the edge.
    expect(ingestOf('account')).toEqual(settings('NTSC_wide_360', true, false));
    expect(ingestOf('rushes')).toEqual(settings('NTSC_wide', true, true));
    expect(ingestOf('workflow')).toEqual(settings('PAL_normal', true, true));
    expect(ingestOf('noProxies')).toEqual(settings('NTSC_wide_360', false, true));
    expect(ingestOf('proxyOnly')).toEqual(settings('NTSC_wide_360', true, false));
    expect(ingestOf('archive')).toEqual(settings('NTSC_wide_360', false, true));
    expect(endpoints.get(ids.offline ?? 0)?.online).toBe(false);
    expect(endpoints.get(ids.account ?? 0)?.online).toBe(true);
  });

  it("follows the endpoint workflow's format before the folder's, into the folder's target folder", async () => {
    fs.copyFileSync(clip, path.join(dirs.workflow ?? '', 'wf.mp4'));
    await x.round(agent);
    const item = await x.itemOf(ids.workflow ?? 0, 'wf.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect(item.log).toContain('format PAL_normal, proxy, source kept');
    const served = await x.servedProxy(item.id);
    expect(served.node.path).toBe('/Incoming/Rushes/wf');
    expect(videoOf(ffprobe(served.file))).toMatchObject({
      codec_name: 'h264',
      width: 480,
      height: 360,
      r_frame_rate: '25/1',
    });
  });

  it('keeps the files of an endpoint without an account where they are, saying what to set, until one is', async () => {
    const { db } = x.t.ctx;
    fs.copyFileSync(clip, path.join(dirs.unassigned ?? '', 'waiting.mp4'));
    await x.round(agent);
    await x.round(agent);
    const queued = await db
      .select()
      .from(ingestQueueItems)
      .where(eq(ingestQueueItems.endpointId, ids.unassigned ?? 0));
    expect(queued).toEqual([]);
    const waiting = one(
      await db
        .select()
        .from(endpoints)
        .where(eq(endpoints.id, ids.unassigned ?? 0)),
    );
    expect(waiting).toMatchObject({
      status: 'warning',
      statusMessage: endpointDestinationMissing({ accountId: null }),
    });
    expect(fs.existsSync(path.join(dirs.unassigned ?? '', 'waiting.mp4'))).toBe(true);
    // An account set: the file goes in like any other.
    await db
      .update(endpoints)
      .set({ accountId: x.w.account.id })
      .where(eq(endpoints.id, ids.unassigned ?? 0));
    await x.round(agent);
    const item = await x.itemOf(ids.unassigned ?? 0, 'waiting.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect((await x.nodeOf(item.id))?.node.path).toBe('/Arrivals/Arrivals/waiting');
  });

  it('lands an archived file with its source kept, no proxy, and nothing that claims to play', async () => {
    fs.copyFileSync(clip, path.join(dirs.archive ?? '', 'master.mp4'));
    await x.round(agent);
    const item = await x.itemOf(ids.archive ?? 0, 'master.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect(item).toMatchObject({ proxyWidth: null, proxyHeight: null, duration: expect.closeTo(2, 1) });
    expect(item.log).not.toContain('Proxy made');
    const landed = await x.nodeOf(item.id);
    if (!landed) throw new Error('no node');
    expect(landed.node.path).toBe('/Arrivals/Vault/master');
    expect(landed.node.thumbId).not.toBeNull();
    expect(landed.media).toMatchObject({ storagePath: null, width: null, height: null, filmstripPath: null });
    const source = await x.t.ctx.storage.localCopy(landed.media.sourcePath ?? 'none');
    expect(fs.readFileSync(source.path).equals(fs.readFileSync(clip))).toBe(true);
    const content = await x.w.editor.client.request<ErrorBody>({
      method: 'GET',
      url: `/api/media/${landed.media.id}/content`,
    });
    expect(content.status).toBe(404);
    expect(content.body.error.message).toBe('Media file not found');
    const info = await x.w.editor.client.request<{ results: { proxyWidth: number | null } }>({
      method: 'GET',
      url: `/api/media/${landed.media.id}`,
    });
    expect(info.status).toBe(200);
    expect(info.body.results.proxyWidth).toBeNull();
  });
});
