import {
  API_VERSION_HEADER,
  CHANNELS,
  MEDIA_UPDATE_API_VERSION,
  type MetadataImportResult,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveChanges } from '../src/modules/events/tables.ts';
import { nodes } from '../src/modules/nodes/tables.ts';
import { makeNodeRow } from '../src/seed/node-factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';

const column = (displayName: string, internalName: string, editable: boolean) => ({
  displayName,
  internalName,
  hidden: false,
  searchable: true,
  editable,
});

describe(`metadata export and import (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let accountName: string;
  const ids = { a: 0, b: 0, c: 0 };

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    accountName = w.account.name;
    const { db } = t.ctx;
    const accountId = w.account.id;
    await makeNodeRow(db, { accountId, name: 'News' });
    const a = await makeNodeRow(db, {
      accountId,
      parentPath: '/News',
      name: 'Clip A',
      type: 'media',
      metadata: { reel: 'R1', tape: 'T1', _IMPORTDISKLAB: 'Disk 1', other: 'kept' },
    });
    const b = await makeNodeRow(db, {
      accountId,
      parentPath: '/News',
      name: 'Clip B',
      type: 'source',
      metadata: { reel: '=1+2', tape: 'T2' },
    });
    const c = await makeNodeRow(db, { accountId, name: 'Ünïcode, "quoted"', type: 'edl', metadata: {} });
    ids.a = a.id;
    ids.b = b.id;
    ids.c = c.id;
    const saved = await w.accountManager.client.post(`/api/accounts/${accountId}/fileColumns`, {
      columns: [
        column('Disk label', '_IMPORTDISKLAB', false),
        column('Reel', 'reel', true),
        column('Tape', 'tape', true),
      ],
      autoInherit: false,
    });
    expect(saved.status).toBe(200);
  });
  afterAll(() => t.close());

  const exportOf = (client: TestClient, format: string, extra = '') =>
    client.get<string>(`/api/media?format=${format}&accountId=${w.account.id}&metadata=${extra}`);
  const csvRows = (text: string) =>
    Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  const importCsv = (
    client: TestClient,
    csv: string,
    dryRun: boolean,
    headers: Record<string, string> = {},
  ) =>
    client.request<Results<MetadataImportResult> & ErrorBody>({
      method: 'POST',
      url: `/api/mediaUpdate?format=json&accountId=${w.account.id}&dryRun=${dryRun}`,
      body: csv,
      headers: { 'content-type': 'text/csv', [API_VERSION_HEADER]: MEDIA_UPDATE_API_VERSION, ...headers },
    });
  const metadataOf = async (id: number) =>
    (await t.ctx.db.select({ metadata: nodes.metadata }).from(nodes).where(eq(nodes.id, id)))[0]?.metadata;

  it('exports every media node with its path, identity and the file columns as CSV', async () => {
    const answer = await exportOf(w.accountManager.client, 'csv');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toContain(`filename="${accountName} metadata.csv"`);
    expect(answer.raw.body.startsWith('\uFEFF')).toBe(true);
    const rows = csvRows(answer.raw.body);
    expect(rows[0]).toEqual(['Id', 'Path', 'Name', 'Type', 'Disk label', 'Reel', 'Tape']);
    // In path order; folders are not media.
    expect(rows.slice(1)).toEqual([
      [String(ids.a), `/${accountName}/News/Clip A`, 'Clip A', 'media', 'Disk 1', 'R1', 'T1'],
      // A value that a spreadsheet would run as a formula is written after a quote.
      [String(ids.b), `/${accountName}/News/Clip B`, 'Clip B', 'source', '', "'=1+2", 'T2'],
      [String(ids.c), `/${accountName}/Ünïcode, "quoted"`, 'Ünïcode, "quoted"', 'edl', '', '', ''],
    ]);
    const chosen = await exportOf(w.accountManager.client, 'csv', 'tape');
    expect(csvRows(chosen.raw.body)[0]).toEqual(['Id', 'Path', 'Name', 'Type', 'Tape']);
  });

  it('exports the same as an XLSX workbook', async () => {
    const answer = await exportOf(w.siteManager.client, 'xlsx');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(answer.headers['content-disposition']).toContain(`${accountName} metadata.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(answer.raw.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values: unknown[][] = [];
    sheet?.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values[0]).toEqual(['Id', 'Path', 'Name', 'Type', 'Disk label', 'Reel', 'Tape']);
    expect(values).toHaveLength(4);
    // A cell holds the value itself, never a formula; an empty value is an empty cell.
    expect(values[2]?.slice(0, 6)).toEqual([
      ids.b,
      `/${accountName}/News/Clip B`,
      'Clip B',
      'source',
      undefined,
      '=1+2',
    ]);
  });

  it('imports an edited export: a dry run says what changes and changes nothing; the import does it', async () => {
    const exported = csvRows((await exportOf(w.accountManager.client, 'csv')).raw.body);
    const edited = exported.map((row) => [...row]);
    const header = edited[0] as string[];
    header.push('Unknown column');
    for (const row of edited.slice(1)) row.push('ignored');
    const rowOf = (id: number) => edited.find((row) => row[0] === String(id)) as string[];
    rowOf(ids.a)[5] = 'R1 edited'; // Reel
    rowOf(ids.a)[4] = 'Disk 2'; // Disk label may not be edited
    rowOf(ids.b)[6] = ''; // Tape cleared
    // A row named by its path alone, and one naming no node.
    edited.push(['', `/${accountName}/Ünïcode, "quoted"`, '', '', '', 'R3', 'T3', 'x']);
    edited.push(['999999', '', '', '', '', 'R9', '', '']);
    const csv = Papa.unparse(edited);

    const dry = await importCsv(w.accountManager.client, csv, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const { status, summary } = dry.body.results;
    expect(status).toBe('dry run');
    expect(summary).toMatchObject({
      rows: 5,
      nodes: 3,
      changes: 4,
      columns: [
        { column: 'Reel', changes: 2 },
        { column: 'Tape', changes: 2 },
      ],
      unknownNodes: [{ row: 6, id: '999999', path: '' }],
      unknownNodeCount: 1,
      unknownColumns: ['Unknown column'],
      readOnlyColumns: ['Disk label'],
    });
    expect(summary.changed).toContainEqual({
      id: ids.a,
      path: `/${accountName}/News/Clip A`,
      changes: [{ column: 'Reel', from: 'R1', to: 'R1 edited' }],
    });
    expect(summary.changed).toContainEqual({
      id: ids.b,
      path: `/${accountName}/News/Clip B`,
      changes: [{ column: 'Tape', from: 'T2', to: '' }],
    });
    expect(await metadataOf(ids.a)).toEqual({
      reel: 'R1',
      tape: 'T1',
      _IMPORTDISKLAB: 'Disk 1',
      other: 'kept',
    });

    const before = await t.ctx.db
      .select()
      .from(liveChanges)
      .where(eq(liveChanges.channel, CHANNELS.nodes(w.account.id)));
    const done = await importCsv(w.accountManager.client, csv, false);
    expect(done.status).toBe(200);
    expect(done.body.results.status).toBe('done');
    expect(await metadataOf(ids.a)).toEqual({
      reel: 'R1 edited',
      tape: 'T1',
      _IMPORTDISKLAB: 'Disk 1',
      other: 'kept',
    });
    // The quote that guarded a formula is taken off again: the value is unchanged.
    expect(await metadataOf(ids.b)).toEqual({ reel: '=1+2' });
    expect(await metadataOf(ids.c)).toEqual({ reel: 'R3', tape: 'T3' });
    const after = await t.ctx.db
      .select()
      .from(liveChanges)
      .where(eq(liveChanges.channel, CHANNELS.nodes(w.account.id)));
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)?.modified).toEqual(expect.arrayContaining([ids.a, ids.b, ids.c]));

    // The search finds the imported value at once (the search index's pending list is read until merged).
    const search = JSON.stringify({ key: 'reel', value: 'r1 edited' });
    const found = await w.accountManager.client.get(
      `/api/nodes?path=${encodeURIComponent(`/${accountName}`)}&search=${encodeURIComponent(search)}`,
    );
    const listed = found.body as { results: { children: { nodeId: number }[] } };
    expect(listed.results.children.map((node) => node.nodeId)).toEqual([ids.a]);

    const again = csvRows((await exportOf(w.accountManager.client, 'csv')).raw.body);
    expect(again.find((row) => row[0] === String(ids.a))?.[5]).toBe('R1 edited');
    const unchanged = await importCsv(w.accountManager.client, Papa.unparse(again), false);
    expect(unchanged.body.results).toMatchObject({ status: 'no changes', summary: { nodes: 0, changes: 0 } });
    const dryUnchanged = await importCsv(w.accountManager.client, Papa.unparse(again), true);
    expect(dryUnchanged.body.results.status).toBe('no changes');
  });

  it('refuses what it cannot read, and changes nothing', async () => {
    const csv = `Id,Reel\n${ids.a},R-refused\n`;
    const noVersion = await w.accountManager.client.request<ErrorBody>({
      method: 'POST',
      url: `/api/mediaUpdate?format=json&accountId=${w.account.id}&dryRun=false`,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.error.code).toBe('apiversion');
    const otherVersion = await importCsv(w.accountManager.client, csv, false, {
      [API_VERSION_HEADER]: '20200101',
    });
    expect(otherVersion.status).toBe(400);
    expect(otherVersion.body.error.code).toBe('apiversion');
    const json = await w.accountManager.client.request<ErrorBody>({
      method: 'POST',
      url: `/api/mediaUpdate?format=json&accountId=${w.account.id}&dryRun=false`,
      body: { Id: ids.a, Reel: 'R-refused' },
      headers: { [API_VERSION_HEADER]: MEDIA_UPDATE_API_VERSION },
    });
    expect([400, 415]).toContain(json.status);
    const octets = await importCsv(w.accountManager.client, csv, false, {
      'content-type': 'application/octet-stream',
    });
    expect(octets.status).toBe(415);
    const noIdentity = await importCsv(w.accountManager.client, 'Reel\nR-refused\n', false);
    expect(noIdentity.status).toBe(400);
    expect(noIdentity.body.error.message).toBe('The file has neither an Id nor a Path column');
    const empty = await importCsv(w.accountManager.client, '', false);
    expect(empty.status).toBe(400);
    const broken = await importCsv(w.accountManager.client, `Id,Reel\n${ids.a},"R-refused\n`, false);
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/^CSV parse error: /);
    const badQuery = await w.accountManager.client.request<ErrorBody>({
      method: 'POST',
      url: `/api/mediaUpdate?format=xml&accountId=${w.account.id}`,
      body: csv,
      headers: { 'content-type': 'text/csv', [API_VERSION_HEADER]: MEDIA_UPDATE_API_VERSION },
    });
    expect(badQuery.status).toBe(400);
    expect((await metadataOf(ids.a))?.reel).toBe('R1 edited');

    expect((await exportOf(w.accountManager.client, 'pdf')).status).toBe(400);
    expect((await w.accountManager.client.get(`/api/media?format=csv`)).status).toBe(400);
    const unknownColumn = await exportOf(w.accountManager.client, 'csv', 'nosuch');
    expect(unknownColumn.status).toBe(400);
  });

  it("is for the account's managers: 403 for others, 404 for an account that does not exist", async () => {
    const csv = `Id,Reel\n${ids.a},R-refused\n`;
    for (const who of [w.editor, w.outsider]) {
      expect((await exportOf(who.client, 'csv')).status).toBe(403);
      expect((await importCsv(who.client, csv, true)).status).toBe(403);
    }
    expect(
      (await w.accountManager.client.get(`/api/media?format=csv&accountId=${w.otherAccount.id}`)).status,
    ).toBe(403);
    expect((await w.admin.client.get('/api/media?format=csv&accountId=987654')).status).toBe(404);
    const missing = await w.admin.client.request({
      method: 'POST',
      url: '/api/mediaUpdate?format=json&accountId=987654&dryRun=true',
      body: csv,
      headers: { 'content-type': 'text/csv', [API_VERSION_HEADER]: MEDIA_UPDATE_API_VERSION },
    });
    expect(missing.status).toBe(404);
    expect((await metadataOf(ids.a))?.reel).toBe('R1 edited');
    // An anonymous client is asked to sign in.
    expect((await t.client().get(`/api/media?format=csv&accountId=${w.account.id}`)).status).toBe(401);
  });
});
