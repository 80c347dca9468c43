import { CHANNELS, EDGE_RULE_MESSAGES, MSG_QUERY_DATA_NOT_JSON, OPTION_MESSAGES } from '@media/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCommands, endpoints } from '../src/modules/edge/tables.ts';
import { makeQueueItemRow } from '../src/seed/demo-edge.ts';
import {
  type ActionResult,
  type Edge,
  type EdgeWorld,
  type Endpoint,
  makeEdgeWorld,
  publishedOn,
  type Service,
  UNKNOWN,
} from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`edge services (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let owner: EdgeWorld['owner'];
  let siteEdge: EdgeWorld['siteEdge'];
  let ownEdge: EdgeWorld['ownEdge'];
  let fileService: EdgeWorld['fileService'];
  let streamService: EdgeWorld['streamService'];

  const published = (channel: string) => publishedOn(t, channel);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, owner, siteEdge, ownEdge, fileService, streamService } = await makeEdgeWorld(t));
  });
  afterAll(() => t.close());

  it('answers the service types and templates an edge server can run', async () => {
    const types = await owner.client.get<Results<{ id: string; endpointTypeIds: string[] }[]>>(
      `/api/edgeServers/${siteEdge.id}/serviceTypes`,
    );
    expect(types.status).toBe(200);
    expect(types.body.results.map((type) => type.id)).toEqual(['FileIngestService', 'StreamIngestService']);
    const relay = (
      await owner.client.post<Results<Edge>>(`/api/users/${owner.user.id}/edgeServers`, {
        name: 'Relay',
        type: 'relay',
      })
    ).body.results;
    const relayTypes = await owner.client.get<Results<{ id: string }[]>>(
      `/api/edgeServers/${relay.id}/serviceTypes`,
    );
    expect(relayTypes.body.results.map((type) => type.id)).toEqual(['StreamIngestService']);
    const templates = await owner.client.get<Results<{ id: string; isTemplate: boolean; typeId: string }[]>>(
      `/api/edgeServers/${siteEdge.id}/serviceTemplates`,
    );
    expect(templates.status).toBe(200);
    expect(templates.body.results.map((template) => template.id)).toEqual(
      templates.body.results.map((_, index) => `template-${index + 1}`),
    );
    expect(templates.body.results.length).toBeGreaterThan(0);
    expect(templates.body.results.every((template) => template.isTemplate)).toBe(true);
    const relayTemplates = await owner.client.get<Results<{ id: string; typeId: string }[]>>(
      `/api/edgeServers/${relay.id}/serviceTemplates`,
    );
    expect(relayTemplates.body.results[0]?.id).toBe('template-1');
    expect(relayTemplates.body.results.every((template) => template.typeId === 'StreamIngestService')).toBe(
      true,
    );
    // The relay cannot run file services.
    const refused = await owner.client.post<ErrorBody>(`/api/edgeServers/${relay.id}/services`, {
      edgeServerId: relay.id,
      name: 'Files',
      typeId: 'FileIngestService',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceTypeNotForEdge('FileIngestService'));

    const one = await w.editor.client.get<Results<{ id: string }>>('/api/serviceTypes/StreamIngestService');
    expect(one.status).toBe(200);
    expect(one.body.results.id).toBe('StreamIngestService');
    expect((await w.editor.client.get('/api/serviceTypes/Toaster')).status).toBe(404);
    expect((await t.client().get('/api/serviceTypes/StreamIngestService')).status).toBe(401);
  });

  it('creates a service in its own group, with the options of its type and their defaults', async () => {
    expect(fileService).toMatchObject({
      edgeServerId: siteEdge.id,
      typeId: 'FileIngestService',
      serviceGroupId: fileService.id,
      endpointCount: 0,
      options: {
        scanIntervalSeconds: { value: '10' },
        settleSeconds: { value: '5' },
        maxConcurrentFiles: { value: '2' },
      },
    });
    expect(await published(CHANNELS.edgeServices(siteEdge.id))).toContain(fileService.id);
    const tuned = await w.siteManager.client.post<Results<Service>>(
      `/api/edgeServers/${siteEdge.id}/services`,
      {
        edgeServerId: siteEdge.id,
        name: 'Buckets',
        typeId: 'FileIngestService',
        options: { scanIntervalSeconds: { value: '60' } },
        id: 'tmp-3',
      },
    );
    expect(tuned.status).toBe(200);
    expect(tuned.body.results.options.scanIntervalSeconds).toEqual({ value: '60' });
  });

  it('refuses a bad service (400): unknown type, unknown or wrong options, another edge, empty name', async () => {
    const path = `/api/edgeServers/${siteEdge.id}/services`;
    const base = { edgeServerId: siteEdge.id, name: 'S', typeId: 'FileIngestService' };
    const type = await owner.client.post<ErrorBody>(path, { ...base, typeId: 'Toaster' });
    expect(type.status).toBe(400);
    expect(type.body.error.message).toBe(EDGE_RULE_MESSAGES.unknownServiceType('Toaster'));
    const unknown = await owner.client.post<ErrorBody>(path, {
      ...base,
      options: { colour: { value: 'red' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(OPTION_MESSAGES.unknown('colour'));
    expect(unknown.body.error.fields).toEqual({ 'options.colour': OPTION_MESSAGES.unknown('colour') });
    const number = await owner.client.post<ErrorBody>(path, {
      ...base,
      options: { scanIntervalSeconds: { value: 'often' } },
    });
    expect(number.body.error.message).toBe(OPTION_MESSAGES.notNumber('Scan interval (s)'));
    const other = await owner.client.post<ErrorBody>(path, { ...base, edgeServerId: ownEdge.id });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toBe(EDGE_RULE_MESSAGES.idMismatch);
    const empty = await owner.client.post<ErrorBody>(path, { ...base, name: ' ' });
    expect(empty.body.error.message).toBe('This field is required');
    expect((await owner.client.post(path, { ...base, options: { x: 'bare' } })).status).toBe(400);
    const services = await owner.client.get<Collection<Service>>(path);
    expect(services.body.results.map((service) => service.name)).not.toContain('S');
  });

  it('joins the fail-over group of a service the user may manage, of the same type', async () => {
    const path = `/api/edgeServers/${ownEdge.id}/services`;
    const paired = await owner.client.post<Results<Service>>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby',
      typeId: 'FileIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(paired.status).toBe(200);
    expect(paired.body.results.serviceGroupId).toBe(fileService.serviceGroupId);
    const wrongType = await owner.client.post<ErrorBody>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby live',
      typeId: 'StreamIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceGroupType);
    const unknown = await owner.client.post<ErrorBody>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby',
      typeId: 'FileIngestService',
      serviceGroupId: UNKNOWN,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(EDGE_RULE_MESSAGES.unknownServiceGroup);
    // Someone else's group is not theirs to join.
    const outsiderEdge = (
      await w.outsider.client.post<Results<Edge>>(`/api/users/${w.outsider.user.id}/edgeServers`, {
        name: 'Outsider box',
      })
    ).body.results;
    const foreign = await w.outsider.client.post<ErrorBody>(`/api/edgeServers/${outsiderEdge.id}/services`, {
      edgeServerId: outsiderEdge.id,
      name: 'Sneaky',
      typeId: 'FileIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(foreign.status).toBe(403);
  });

  it('lists the fail-over groups a new service may join: its type, on edge servers the user manages', async () => {
    type Groups = Results<{ serviceGroupId: number; services: { id: number; edgeServerName: string }[] }[]>;
    const path = (edgeId: number, typeId = 'FileIngestService') =>
      `/api/edgeServers/${edgeId}/serviceGroups?typeId=${typeId}`;
    const mine = await owner.client.get<Groups>(path(ownEdge.id));
    expect(mine.status).toBe(200);
    const group = mine.body.results.find((g) => g.serviceGroupId === fileService.serviceGroupId);
    expect(group?.services).toContainEqual(
      expect.objectContaining({ id: fileService.id, edgeServerId: siteEdge.id }),
    );
    const ids = mine.body.results.flatMap((g) => g.services.map((service) => service.id));
    expect(ids).not.toContain(streamService.id);
    const streams = await owner.client.get<Groups>(path(ownEdge.id, 'StreamIngestService'));
    expect(streams.body.results.flatMap((g) => g.services.map((service) => service.id))).toContain(
      streamService.id,
    );
    const outsiderEdge = (
      await w.outsider.client.post<Results<Edge>>(`/api/users/${w.outsider.user.id}/edgeServers`, {
        name: 'Outsider groups',
      })
    ).body.results;
    const theirs = await w.outsider.client.get<Groups>(path(outsiderEdge.id));
    expect(theirs.status).toBe(200);
    expect(theirs.body.results.flatMap((g) => g.services.map((service) => service.id))).not.toContain(
      fileService.id,
    );
    expect((await owner.client.get<ErrorBody>(path(ownEdge.id, 'Toaster'))).status).toBe(400);
    expect((await owner.client.get(`/api/edgeServers/${ownEdge.id}/serviceGroups`)).status).toBe(400);
    expect((await w.outsider.client.get(path(ownEdge.id))).status).toBe(403);
    expect((await t.client().get(path(ownEdge.id))).status).toBe(401);
    expect((await owner.client.get(path(UNKNOWN))).status).toBe(404);
  });

  it('lists, reads, renames and saves services', async () => {
    const list = await owner.client.get<Collection<Service>>(`/api/edgeServers/${siteEdge.id}/services`);
    expect(list.status).toBe(200);
    expect(list.body.channel).toBe(`edgeServers/${siteEdge.id}/EdgeServices`);
    const names = list.body.results.map((service) => service.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const one = await w.siteManager.client.get<Results<Service>>(`/api/services/${streamService.id}`);
    expect(one.body.results).toMatchObject({ id: streamService.id, typeId: 'StreamIngestService' });

    const renamed = await owner.client.post<Results<Service>>(`/api/services/${streamService.id}`, {
      name: 'Live 1',
    });
    expect(renamed.body.results.name).toBe('Live 1');
    expect(renamed.body.results.options).toEqual(streamService.options);
    const saved = await owner.client.post<Results<Service>>(`/api/services/${streamService.id}`, {
      id: streamService.id,
      edgeServerId: siteEdge.id,
      name: 'Live 1',
      typeId: 'StreamIngestService',
      options: { recordingFormat: { value: 'mxf' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.results.options.recordingFormat).toEqual({ value: 'mxf' });
    expect(saved.body.results.options.segmentSeconds).toEqual({ value: '6' });

    const path = `/api/services/${streamService.id}`;
    const choice = await owner.client.post<ErrorBody>(path, {
      name: 'x',
      options: { recordingFormat: { value: 'avi' } },
    });
    expect(choice.status).toBe(400);
    expect(choice.body.error.message).toBe(
      OPTION_MESSAGES.notChoice('Recording format', ['mp4', 'mxf', 'ts']),
    );
    expect(
      (await owner.client.post<ErrorBody>(path, { id: fileService.id, name: 'x' })).body.error.message,
    ).toBe(EDGE_RULE_MESSAGES.idMismatch);
    expect(
      (await owner.client.post<ErrorBody>(path, { name: 'x', edgeServerId: ownEdge.id })).body.error.message,
    ).toBe(EDGE_RULE_MESSAGES.serviceMoved);
    expect((await owner.client.post<ErrorBody>(path, { name: '' })).body.error.message).toBe(
      'This field is required',
    );
    expect((await owner.client.post<ErrorBody>(path, { name: 'n'.repeat(101) })).body.error.message).toBe(
      'Name too long',
    );
    // A type change must keep the service's endpoints allowed.
    const stranded = await owner.client.post<ErrorBody>(`/api/services/${fileService.id}`, {
      name: fileService.name,
      typeId: 'StreamIngestService',
    });
    expect(stranded.status).toBe(400);
    expect(stranded.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceTypeInUse('LocalFolderEndpoint'));
    expect((await owner.client.get<Results<Service>>(path)).body.results.name).toBe('Live 1');
  });

  it('asks the agent to restart a service or rescan it', async () => {
    for (const action of ['restart', 'rescan']) {
      const answer = await owner.client.post<Results<ActionResult>>(
        `/api/services/${fileService.id}/actions/${action}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results).toMatchObject({
        action: `service:${action}`,
        status: 'requested',
        result: null,
      });
    }
    const commands = await t.ctx.db
      .select()
      .from(edgeCommands)
      .where(and(eq(edgeCommands.edgeServerId, siteEdge.id), eq(edgeCommands.targetId, fileService.id)));
    expect(commands.map((command) => command.action).sort()).toEqual(['service:rescan', 'service:restart']);
    expect((await owner.client.post(`/api/services/${fileService.id}/actions/explode`)).status).toBe(400);
  });

  it('answers the summary query of a service; data must be JSON', async () => {
    const service = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
        edgeServerId: siteEdge.id,
        name: 'Counted',
        typeId: 'FileIngestService',
      })
    ).body.results;
    const add = async (name: string, extra: Record<string, unknown> = {}) =>
      (
        await w.admin.client.post<Results<Endpoint>>(`/api/services/${service.id}/endpoints`, {
          name,
          typeId: 'S3Endpoint',
          options: { bucket: 'b' },
          ...extra,
        })
      ).body.results;
    const a = await add('A', { accountId: w.account.id });
    const b = await add('B');
    await add('C');
    await t.ctx.db
      .update(endpoints)
      .set({ online: true })
      .where(inArray(endpoints.id, [a.id, b.id]));
    await w.admin.client.post(`/api/endpoints/${b.id}/actions/disable`);
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: a.id, status: 'queued' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'queued' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'ingesting' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'ingested' });

    const path = `/api/services/${service.id}/queries/summary`;
    const all = await owner.client.get<Results<Record<string, number>>>(
      `${path}?data=${encodeURIComponent('{}')}`,
    );
    expect(all.status).toBe(200);
    expect(all.body.results).toEqual({
      serviceId: service.id,
      endpointCount: 3,
      onlineCount: 2,
      disabledCount: 1,
      queuedCount: 2,
      ingestingCount: 1,
    });
    const ofAccount = await owner.client.get<Results<Record<string, number>>>(
      `${path}?data=${encodeURIComponent(JSON.stringify({ accountId: w.account.id }))}`,
    );
    expect(ofAccount.body.results).toMatchObject({ endpointCount: 1, queuedCount: 1, ingestingCount: 0 });
    expect((await owner.client.get(path)).status).toBe(200);
    const bad = await owner.client.get<ErrorBody>(`${path}?data=${encodeURIComponent('{nope')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MSG_QUERY_DATA_NOT_JSON);
    expect((await owner.client.get(`${path}?data=${encodeURIComponent('{"colour":1}')}`)).status).toBe(400);
    expect((await owner.client.get(`/api/services/${service.id}/queries/everything`)).status).toBe(400);
    // The endpoint being ingested names its queue item.
    const busy = await owner.client.get<Results<Endpoint>>(`/api/endpoints/${b.id}`);
    expect(busy.body.results.queueItemId).not.toBeNull();
  });

  it('deletes a service with its endpoints', async () => {
    const service = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${ownEdge.id}/services`, {
        edgeServerId: ownEdge.id,
        name: 'Temporary',
        typeId: 'StreamIngestService',
      })
    ).body.results;
    const point = (
      await owner.client.post<Results<Endpoint>>(`/api/services/${service.id}/endpoints`, {
        name: 'Bars',
        typeId: 'TeststreamEndpoint',
      })
    ).body.results;
    const trashed = await owner.client.post<Results<{ ok: true }>>(`/api/services/${service.id}/trash`);
    expect(trashed.status).toBe(200);
    expect((await owner.client.get(`/api/services/${service.id}`)).status).toBe(404);
    expect(await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, point.id))).toEqual([]);
    expect(await published(CHANNELS.edgeServices(ownEdge.id))).toContain(service.id);
    expect(await published(CHANNELS.endpoints(ownEdge.id))).toContain(point.id);
  });
});
