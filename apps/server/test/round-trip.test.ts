import { API_VERSION_HEADER, API_VERSIONS } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArrivalsFolderRow, makeQueueItemRow } from '../src/seed/demo-edge.ts';
import { type EdgeWorld, makeEdgeWorld } from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';
import { buttonBody, createButton, listButtons } from './publishing-world.ts';

const INGEST = { [API_VERSION_HEADER]: API_VERSIONS.ingest };
type Entity = Record<string, unknown> & { id: number };

/**
 * DESIGN.md "HTTP conventions": a client that GETs an entity and POSTs it back with one field changed gets
 * a 2xx; the fields it may not change are ignored; the change is saved.
 */
describe(`whole-entity saves (${testDriver()})`, () => {
  let t: TestApp;
  let x: EdgeWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    x = await makeEdgeWorld(t);
  });
  afterAll(() => t.close());

  /** GETs `read`, POSTs the whole answer back to `save` with `change`, and reads again. */
  const roundTrip = async (
    client: TestClient,
    read: () => Promise<Entity>,
    save: string,
    change: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => {
    const entity = await read();
    const saved = await client.post<Results<Entity>>(save, { ...entity, ...change }, { headers });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    const again = await read();
    expect(again).toMatchObject(change);
    return again;
  };
  const getOne = async (client: TestClient, url: string, headers: Record<string, string> = {}) => {
    const answer = await client.get<Results<Entity>>(url, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.results;
  };
  const findIn = async (
    client: TestClient,
    url: string,
    id: number,
    headers: Record<string, string> = {},
  ) => {
    const answer = await client.get<Collection<Entity>>(url, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const found = answer.body.results.find((entity) => entity.id === id);
    expect(found, `${id} in ${url}`).toBeDefined();
    return found as Entity;
  };

  it('an edge server: read-only fields are ignored, a field it does not have is a 400', async () => {
    const url = `/api/edgeServers/${x.siteEdge.id}`;
    const admin = x.w.admin.client;
    const before = await roundTrip(admin, () => getOne(admin, url), url, { name: 'Paris ingest 2' });
    const ignored = await admin.post(url, {
      ...before,
      serviceCount: 99,
      connected: true,
      userName: 'someone',
    });
    expect(ignored.status).toBe(200);
    expect(await getOne(admin, url)).toMatchObject({
      serviceCount: before.serviceCount,
      connected: before.connected,
      userName: before.userName,
    });
    const unknown = await admin.post<{ error: { fields: Record<string, string> } }>(url, {
      ...before,
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({ colour: 'Unknown field' });
    // The id may come as text.
    expect((await admin.post(url, { ...before, id: String(before.id), name: 'Paris ingest 3' })).status).toBe(
      200,
    );
  });

  it('a service', async () => {
    const url = `/api/services/${x.fileService.id}`;
    await roundTrip(x.owner.client, () => getOne(x.owner.client, url), url, { name: 'Watch folders 2' });
  });

  it('an endpoint', async () => {
    const url = `/api/endpoints/${x.endpoint.id}`;
    await roundTrip(x.owner.client, () => getOne(x.owner.client, url), url, { name: 'Local folder 2' });
  });

  it('an arrivals folder', async () => {
    const folder = await makeArrivalsFolderRow(t.ctx.db, { accountId: x.w.account.id });
    const url = `/api/arrivalsFolders/${folder.id}`;
    await roundTrip(x.w.accountManager.client, () => getOne(x.w.accountManager.client, url), url, {
      name: 'Rushes 2',
    });
  });

  it('an invite', async () => {
    const roles = await x.w.accountManager.client.get<Collection<{ id: number; name: string }>>(
      `/api/account_roles?siteId=${x.w.site.id}`,
    );
    const editor = roles.body.results.find((role) => role.name === 'Editor');
    const viewer = roles.body.results.find((role) => role.name === 'Viewer');
    // A bare list, as spec1 §7 describes it.
    const created = await x.w.accountManager.client.post<Results<Entity[]>>(
      `/api/accounts/${x.w.account.id}/invites`,
      [{ email: 'round.trip@example.com', roleId: editor?.id }],
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.results[0]?.id as number;
    const list = `/api/accounts/${x.w.account.id}/invites`;
    await roundTrip(
      x.w.accountManager.client,
      () => findIn(x.w.accountManager.client, list, id),
      `${list}/${id}`,
      {
        roleId: viewer?.id,
      },
    );
  });

  it('an account', async () => {
    const url = `/api/accounts/${x.w.account.id}`;
    await roundTrip(x.w.admin.client, () => getOne(x.w.admin.client, url), url, {
      contactName: 'Round Trip',
    });
  });

  it('a user', async () => {
    const url = `/api/users/${x.owner.user.id}`;
    await roundTrip(x.w.admin.client, () => getOne(x.w.admin.client, url), url, { fullname: 'Round Trip' });
  });

  it('a queue item, whose id may come as text', async () => {
    const endpoint = { id: x.endpoint.id, accountId: x.w.account.id };
    const item = await makeQueueItemRow(t.ctx.db, {
      edgeServerId: x.siteEdge.id,
      endpointId: endpoint.id,
      accountId: x.w.account.id,
      // An item that waits for a person can be renamed (spec2 §4).
      status: 'actionRequired',
    });
    const list = `/api/edgeServers/${x.siteEdge.id}/ingestQueueItems`;
    await roundTrip(
      x.w.admin.client,
      () => findIn(x.w.admin.client, list, item.id, INGEST),
      `/api/ingestQueueItems/${item.id}`,
      { reelName: 'Reel 2' },
      INGEST,
    );
    const unknown = await x.w.admin.client.post(
      '/api/ingestQueueItems/999999',
      { id: '999999', status: 'abort' },
      { headers: INGEST },
    );
    expect(unknown.status).toBe(404);
  });

  it('a publishing button', async () => {
    const id = await createButton(
      x.w.accountManager.client,
      'accounts',
      x.w.account.id,
      buttonBody('Round trip'),
    );
    const read = async () =>
      (await listButtons(x.w.accountManager.client, 'accounts', x.w.account.id)).results.find(
        (button) => button.id === id,
      ) as unknown as Entity;
    await roundTrip(x.w.accountManager.client, read, `/api/publishButtons/${id}`, { name: 'Round trip 2' });
  });
});
