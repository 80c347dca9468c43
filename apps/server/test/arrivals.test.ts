import { ARRIVALS_ERRORS, ARRIVALS_FOLDER_TYPES, ARRIVALS_MESSAGES } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import {
  makeArrivalsFolderRow,
  makeEdgeServerRow,
  makeEndpointRow,
  makeQueueItemRow,
  makeServiceRow,
} from '../src/seed/demo-edge.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Folder = {
  id: number;
  accountId: number;
  typeId: string;
  name: string;
  priority: number;
  options: Record<string, unknown>;
  endpointCount: number;
};
type Assignment = { endpointId: number; arrivalsFolderId: number };

describe(`arrivals folders (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let edge: { id: number };
  let service: { id: number };
  let folder: { id: number; typeId: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    edge = await makeEdgeServerRow(t.ctx.db, {
      userId: w.siteManager.user.id,
      siteId: w.site.id,
    });
    service = await makeServiceRow(t.ctx.db, { edgeServerId: edge.id });
    folder = await makeArrivalsFolderRow(t.ctx.db, { accountId: w.account.id, name: 'Rushes' });
  });
  afterAll(() => t.close());

  const endpointRow = async (id: number) =>
    (await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, id)))[0];

  describe('folder types', () => {
    it('lists the catalogue to account managers', async () => {
      const res = await w.accountManager.client.get<Results<{ id: string }[]>>(
        `/api/accounts/${w.account.id}/arrivalsFolderTypes`,
      );
      expect(res.status).toBe(200);
      expect(res.body.results.map((type) => type.id)).toEqual(ARRIVALS_FOLDER_TYPES.map((type) => type.id));
    });
    it('answers 401, 403 and 404', async () => {
      expect((await t.client().get(`/api/accounts/${w.account.id}/arrivalsFolderTypes`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/accounts/${w.account.id}/arrivalsFolderTypes`)).status).toBe(
        403,
      );
      expect((await w.admin.client.get('/api/accounts/999999/arrivalsFolderTypes')).status).toBe(404);
      expect((await w.admin.client.get('/api/accounts/x/arrivalsFolderTypes')).status).toBe(400);
    });
  });

  describe('folders', () => {
    it('creates a folder from nothing: the default name and the first type with its option defaults', async () => {
      const res = await w.accountManager.client.post<Results<Folder>>(
        `/api/accounts/${w.account.id}/arrivalsFolders`,
        {},
      );
      expect(res.status).toBe(200);
      const first = ARRIVALS_FOLDER_TYPES[0];
      expect(res.body.results).toMatchObject({
        accountId: w.account.id,
        name: ARRIVALS_MESSAGES.defaultName,
        typeId: first?.id,
        priority: 0,
        endpointCount: 0,
      });
      expect(Object.keys(res.body.results.options).sort()).toEqual(
        first?.options.map((option) => option.name).sort(),
      );
    });

    it('creates the full folder, ignoring a temporary id', async () => {
      const res = await w.siteManager.client.post<Results<Folder>>(
        `/api/accounts/${w.account.id}/arrivalsFolders`,
        {
          id: 'temp-1',
          name: '  Archive masters ',
          typeId: 'archive',
          priority: 5,
          options: { retentionDays: 30 },
          accountId: w.account.id,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.results).toMatchObject({
        name: 'Archive masters',
        typeId: 'archive',
        priority: 5,
        options: { retentionDays: 30, storageClass: 'standard' },
      });
    });

    it('refuses bad input with the reason (400) and creates nothing', async () => {
      const url = `/api/accounts/${w.account.id}/arrivalsFolders`;
      const before = (await w.admin.client.get<Collection<Folder>>(url)).body.total;
      const emptyName = await w.admin.client.post<ErrorBody>(url, { name: ' ' });
      expect(emptyName.status).toBe(400);
      expect(emptyName.body.error.fields?.name).toBe(ARRIVALS_MESSAGES.required);
      const badType = await w.admin.client.post<ErrorBody>(url, { typeId: 'nope' });
      expect(badType.status).toBe(400);
      expect(badType.body.error.message).toBe(ARRIVALS_ERRORS.unknownType('nope'));
      const badOption = await w.admin.client.post<ErrorBody>(url, { options: { colour: 'red' } });
      expect(badOption.status).toBe(400);
      expect(badOption.body.error.fields?.['options.colour']).toBe(ARRIVALS_ERRORS.unknownOption);
      const unknownField = await w.admin.client.post<ErrorBody>(url, { name: 'A', colour: 'red' });
      expect(unknownField.status).toBe(400);
      const otherAccount = await w.admin.client.post<ErrorBody>(url, { accountId: w.otherAccount.id });
      expect(otherAccount.body.error.message).toBe(ARRIVALS_ERRORS.otherAccount);
      expect((await w.admin.client.get<Collection<Folder>>(url)).body.total).toBe(before);
    });

    it('answers 401 and 403 to non-managers and 404 for an unknown account', async () => {
      const url = `/api/accounts/${w.account.id}/arrivalsFolders`;
      expect((await t.client().get(url)).status).toBe(401);
      expect((await t.client().post(url, { name: 'X' })).status).toBe(401);
      expect((await w.editor.client.get(url)).status).toBe(403);
      expect((await w.editor.client.post(url, { name: 'X' })).status).toBe(403);
      expect(
        (await w.accountManager.client.get(`/api/accounts/${w.otherAccount.id}/arrivalsFolders`)).status,
      ).toBe(403);
      expect((await w.admin.client.get('/api/accounts/999999/arrivalsFolders')).status).toBe(404);
      expect((await w.admin.client.post('/api/accounts/999999/arrivalsFolders', {})).status).toBe(404);
    });

    it('lists the folders of the account by name, with their channel', async () => {
      const res = await w.accountManager.client.get<Collection<Folder>>(
        `/api/accounts/${w.account.id}/arrivalsFolders`,
      );
      expect(res.status).toBe(200);
      expect(res.body.channel).toBe(`accounts/${w.account.id}/arrivalsFolders`);
      const names = res.body.results.map((f) => f.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(names).toContain('Rushes');
      expect(res.body.results.every((f) => f.accountId === w.account.id)).toBe(true);
    });

    it('reads one folder (200, 401, 403, 404)', async () => {
      const res = await w.accountManager.client.get<Results<Folder>>(`/api/arrivalsFolders/${folder.id}`);
      expect(res.status).toBe(200);
      expect(res.body.results.name).toBe('Rushes');
      expect((await t.client().get(`/api/arrivalsFolders/${folder.id}`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/arrivalsFolders/${folder.id}`)).status).toBe(403);
      expect((await w.admin.client.get('/api/arrivalsFolders/999999')).status).toBe(404);
    });

    it('renames with { id, name } and saves the full folder', async () => {
      const renamed = await w.accountManager.client.post<Results<Folder>>(
        `/api/arrivalsFolders/${folder.id}`,
        {
          id: folder.id,
          name: 'Rushes A',
        },
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body.results).toMatchObject({ name: 'Rushes A', typeId: folder.typeId });
      const saved = await w.accountManager.client.post<Results<Folder>>(`/api/arrivalsFolders/${folder.id}`, {
        id: folder.id,
        name: 'Rushes',
        typeId: 'proxyOnly',
        priority: 3,
        options: { targetFolder: 'Incoming' },
        accountId: w.account.id,
      });
      expect(saved.body.results).toMatchObject({
        name: 'Rushes',
        typeId: 'proxyOnly',
        priority: 3,
        options: { targetFolder: 'Incoming' },
      });
    });

    it('refuses a save whose body id differs from the address, another account or a bad type (400)', async () => {
      const url = `/api/arrivalsFolders/${folder.id}`;
      const mismatch = await w.admin.client.post<ErrorBody>(url, { id: folder.id + 1000, name: 'X' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error.message).toBe(ARRIVALS_ERRORS.idMismatch);
      const moved = await w.admin.client.post<ErrorBody>(url, {
        id: folder.id,
        name: 'X',
        accountId: w.otherAccount.id,
      });
      expect(moved.body.error.message).toBe(ARRIVALS_ERRORS.otherAccount);
      const badType = await w.admin.client.post<ErrorBody>(url, { id: folder.id, name: 'X', typeId: 'zzz' });
      expect(badType.body.error.message).toBe(ARRIVALS_ERRORS.unknownType('zzz'));
      const noName = await w.admin.client.post<ErrorBody>(url, { id: folder.id });
      expect(noName.status).toBe(400);
      expect((await w.admin.client.get<Results<Folder>>(url)).body.results.name).toBe('Rushes');
      expect((await t.client().post(url, { id: folder.id, name: 'X' })).status).toBe(401);
      expect((await w.editor.client.post(url, { id: folder.id, name: 'X' })).status).toBe(403);
      expect(
        (await w.admin.client.post('/api/arrivalsFolders/999999', { id: 999999, name: 'X' })).status,
      ).toBe(404);
    });

    it('trashes a folder: its endpoints lose the assignment, its queue items stay with no folder', async () => {
      const doomed = await makeArrivalsFolderRow(t.ctx.db, { accountId: w.account.id, name: 'Doomed' });
      const ep = await makeEndpointRow(t.ctx.db, {
        serviceId: service.id,
        accountId: w.account.id,
        arrivalsFolderId: doomed.id,
      });
      const item = await makeQueueItemRow(t.ctx.db, {
        edgeServerId: edge.id,
        endpointId: ep.id,
        accountId: w.account.id,
        arrivalsFolderId: doomed.id,
      });
      expect((await t.client().post(`/api/arrivalsFolders/${doomed.id}/trash`)).status).toBe(401);
      expect((await w.editor.client.post(`/api/arrivalsFolders/${doomed.id}/trash`)).status).toBe(403);
      const res = await w.accountManager.client.post(`/api/arrivalsFolders/${doomed.id}/trash`);
      expect(res.status).toBe(200);
      expect((await w.admin.client.get(`/api/arrivalsFolders/${doomed.id}`)).status).toBe(404);
      expect((await endpointRow(ep.id))?.arrivalsFolderId).toBeNull();
      const [kept] = await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id));
      expect(kept?.arrivalsFolderId).toBeNull();
      expect(kept?.version).toBeGreaterThan(item.version);
      expect((await w.admin.client.post(`/api/arrivalsFolders/${doomed.id}/trash`)).status).toBe(404);
    });
  });

  describe('endpoint assignments', () => {
    const url = '/api/arrivalsFolderEndpointAssignments';

    it('assigns one endpoint of the account and lists it for the account and the service', async () => {
      const ep = await makeEndpointRow(t.ctx.db, { serviceId: service.id, accountId: w.account.id });
      const res = await w.accountManager.client.post<Results<Assignment[]>>(url, {
        endpointId: ep.id,
        arrivalsFolderId: folder.id,
      });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([{ endpointId: ep.id, arrivalsFolderId: folder.id }]);
      expect((await endpointRow(ep.id))?.arrivalsFolderId).toBe(folder.id);
      const ofAccount = await w.accountManager.client.get<Collection<Assignment>>(
        `/api/accounts/${w.account.id}/arrivalsFolderEndpointAssignments`,
      );
      expect(ofAccount.status).toBe(200);
      expect(ofAccount.body.results).toContainEqual({ endpointId: ep.id, arrivalsFolderId: folder.id });
      const ofService = await w.siteManager.client.get<Collection<Assignment>>(
        `/api/services/${service.id}/arrivalsFolderEndpointAssignments`,
      );
      expect(ofService.status).toBe(200);
      expect(ofService.body.channel).toBe(`edgeServers/${edge.id}/endpoints`);
      expect(ofService.body.results).toContainEqual({ endpointId: ep.id, arrivalsFolderId: folder.id });
      const folderNow = await w.accountManager.client.get<Results<Folder>>(
        `/api/arrivalsFolders/${folder.id}`,
      );
      expect(folderNow.body.results.endpointCount).toBeGreaterThan(0);
    });

    it('lists assignments: 401, 403 and 404', async () => {
      const accountUrl = `/api/accounts/${w.account.id}/arrivalsFolderEndpointAssignments`;
      const serviceUrl = `/api/services/${service.id}/arrivalsFolderEndpointAssignments`;
      expect((await t.client().get(accountUrl)).status).toBe(401);
      expect((await t.client().get(serviceUrl)).status).toBe(401);
      expect((await w.editor.client.get(accountUrl)).status).toBe(403);
      expect((await w.accountManager.client.get(serviceUrl)).status).toBe(403);
      expect(
        (await w.admin.client.get('/api/accounts/999999/arrivalsFolderEndpointAssignments')).status,
      ).toBe(404);
      expect(
        (await w.admin.client.get('/api/services/999999/arrivalsFolderEndpointAssignments')).status,
      ).toBe(404);
    });

    it("gives an endpoint of no account the folder's account, for a manager of both the account and the edge", async () => {
      const ep = await makeEndpointRow(t.ctx.db, { serviceId: service.id });
      const refused = await w.accountManager.client.post<ErrorBody>(url, [
        { endpointId: ep.id, arrivalsFolderId: folder.id },
      ]);
      expect(refused.status).toBe(403);
      expect((await endpointRow(ep.id))?.accountId).toBeNull();
      const res = await w.siteManager.client.post(url, [{ endpointId: ep.id, arrivalsFolderId: folder.id }]);
      expect(res.status).toBe(200);
      expect(await endpointRow(ep.id)).toMatchObject({
        accountId: w.account.id,
        arrivalsFolderId: folder.id,
      });
    });

    it('assigns a list all or nothing: one endpoint of another account changes nothing (400)', async () => {
      const good = await makeEndpointRow(t.ctx.db, { serviceId: service.id, accountId: w.account.id });
      const foreign = await makeEndpointRow(t.ctx.db, {
        serviceId: service.id,
        accountId: w.siblingAccount.id,
      });
      const res = await w.siteManager.client.post<ErrorBody>(url, [
        { endpointId: good.id, arrivalsFolderId: folder.id },
        { endpointId: foreign.id, arrivalsFolderId: folder.id },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(ARRIVALS_ERRORS.endpointOfOtherAccount(foreign.id));
      expect((await endpointRow(good.id))?.arrivalsFolderId).toBeNull();
      expect((await endpointRow(foreign.id))?.arrivalsFolderId).toBeNull();
      const missing = await w.siteManager.client.post(url, [
        { endpointId: good.id, arrivalsFolderId: folder.id },
        { endpointId: 999999, arrivalsFolderId: folder.id },
      ]);
      expect(missing.status).toBe(404);
      expect((await endpointRow(good.id))?.arrivalsFolderId).toBeNull();
      expect(
        (await w.siteManager.client.post(url, { endpointId: good.id, arrivalsFolderId: 999999 })).status,
      ).toBe(404);
      expect((await w.siteManager.client.post(url, { endpointId: good.id })).status).toBe(400);
      expect((await w.siteManager.client.post(url, [])).status).toBe(400);
      expect((await t.client().post(url, { endpointId: good.id, arrivalsFolderId: folder.id })).status).toBe(
        401,
      );
      expect(
        (await w.editor.client.post(url, { endpointId: good.id, arrivalsFolderId: folder.id })).status,
      ).toBe(403);
    });

    it('removes assignments, all or nothing', async () => {
      const a = await makeEndpointRow(t.ctx.db, {
        serviceId: service.id,
        accountId: w.account.id,
        arrivalsFolderId: folder.id,
      });
      const b = await makeEndpointRow(t.ctx.db, { serviceId: service.id, accountId: w.account.id });
      const trash = `${url}/trash`;
      const refused = await w.accountManager.client.post<ErrorBody>(trash, [
        { endpointId: a.id, arrivalsFolderId: folder.id },
        { endpointId: b.id, arrivalsFolderId: folder.id },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(ARRIVALS_ERRORS.notAssigned(b.id, folder.id));
      expect((await endpointRow(a.id))?.arrivalsFolderId).toBe(folder.id);
      expect((await t.client().post(trash, { endpointId: a.id, arrivalsFolderId: folder.id })).status).toBe(
        401,
      );
      expect(
        (await w.editor.client.post(trash, { endpointId: a.id, arrivalsFolderId: folder.id })).status,
      ).toBe(403);
      expect(
        (await w.admin.client.post(trash, { endpointId: 999999, arrivalsFolderId: folder.id })).status,
      ).toBe(404);
      const res = await w.accountManager.client.post(trash, {
        endpointId: a.id,
        arrivalsFolderId: folder.id,
      });
      expect(res.status).toBe(200);
      expect((await endpointRow(a.id))?.arrivalsFolderId).toBeNull();
      expect((await endpointRow(a.id))?.accountId).toBe(w.account.id);
    });
  });
});
