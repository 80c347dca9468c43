import fs from 'node:fs';
import path from 'node:path';
import { MSG_UPLOAD_NO_FILE } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../src/modules/uploads/tables.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  multipartFile,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Upload = {
  id: number;
  kind: string;
  name: string;
  fileName: string;
  size: number;
  location: string;
  uploadedBy: string;
};

describe(`uploads (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp({ UPLOAD_MAX_BYTES: '1000' });
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const send = <T>(
    client: World['admin']['client'],
    url: string,
    file: Parameters<typeof multipartFile>[0],
  ) => {
    const { body, headers } = multipartFile(file);
    return client.request<T>({ method: 'POST', url, body, headers });
  };
  const webUpload = (
    id: number,
    query = 'uploadname=Interview&format=PAL_wide&aspect=wide&location=File%20Uploads%2F2026-11-23',
  ) => `/api/accounts/${id}/uploads?${query}`;
  const storedFiles = () => {
    const folder = path.join(t.ctx.config.dataDir, 'media', 'accounts', String(w.account.id), 'uploads');
    return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
  };

  it('stores a media file of an editor with its options, outside the web root, and lists it', async () => {
    const sent = await send<Results<Upload>>(w.editor.client, webUpload(w.account.id), {
      fileName: 'interview.mov',
      content: 'not really a movie',
      type: 'video/quicktime',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.results).toMatchObject({
      kind: 'media',
      name: 'Interview',
      fileName: 'interview.mov',
      size: 18,
      location: 'File Uploads/2026-11-23',
      format: 'PAL_wide',
      aspect: 'wide',
      uploadedBy: w.editor.user.username,
      // A node at its location, whose proxy a job makes (uploads-processing.test.ts plays real ones).
      status: 'processing',
      nodePath: '/File Uploads/2026-11-23/Interview',
    });
    const [row] = await t.ctx.db.select().from(uploads).where(eq(uploads.id, sent.body.results.id));
    const stored = path.join(t.ctx.config.dataDir, row?.storagePath ?? '');
    expect(stored.startsWith(path.join(t.ctx.config.dataDir, 'media'))).toBe(true);
    expect(fs.readFileSync(stored, 'utf8')).toBe('not really a movie');
    const list = await w.editor.client.get<Collection<Upload>>(`/api/accounts/${w.account.id}/uploads`);
    expect(list.body.results.map((u) => u.fileName)).toEqual(['interview.mov']);
    expect(list.body.channel).toBe(`accounts/${w.account.id}/uploads`);
    const doc = await send<Results<Upload>>(
      w.accountManager.client,
      webUpload(w.account.id, 'uploadname=Script'),
      {
        fileName: 'script.PDF',
        content: '%PDF',
      },
    );
    expect(doc.body.results).toMatchObject({ kind: 'document', status: 'ready', nodeId: null });
  });

  it('refuses a file type (415), a file over the limit (413) and no file (400), storing nothing', async () => {
    const before = storedFiles().length;
    const exe = await send<ErrorBody>(w.editor.client, webUpload(w.account.id), {
      fileName: 'setup.exe',
      content: 'MZ',
    });
    expect(exe.status).toBe(415);
    expect(exe.body.error.message).toBe('Files of type .exe cannot be uploaded here');
    const big = await send<ErrorBody>(w.editor.client, webUpload(w.account.id), {
      fileName: 'big.mp4',
      content: Buffer.alloc(1001, 1),
    });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe('The file is larger than the 1000 bytes allowed');
    const wrongField = await send<ErrorBody>(w.editor.client, webUpload(w.account.id), {
      field: 'file',
      fileName: 'a.mov',
      content: 'x',
    });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error.message).toBe(MSG_UPLOAD_NO_FILE);
    const json = await w.editor.client.post<ErrorBody>(webUpload(w.account.id), { uploadfile: 'x' });
    expect(json.status).toBe(400);
    const noName = await send<ErrorBody>(w.editor.client, webUpload(w.account.id, 'format=PAL_wide'), {
      fileName: 'a.mov',
      content: 'x',
    });
    expect(noName.status).toBe(400);
    const badFormat = await send<ErrorBody>(
      w.editor.client,
      webUpload(w.account.id, 'uploadname=A&format=SECAM'),
      {
        fileName: 'a.mov',
        content: 'x',
      },
    );
    expect(badFormat.body.error.message).toBe('Unknown ingest format: SECAM');
    expect(storedFiles().length).toBe(before);
    expect(
      fs.readdirSync(path.join(t.ctx.config.dataDir, 'tmp')).filter((name) => name.endsWith('.part')),
    ).toEqual([]);
    const rows = await t.ctx.db.select().from(uploads).where(eq(uploads.accountId, w.account.id));
    expect(rows).toHaveLength(2);
  });

  it('lets only roles with canUpload and managers upload, and only managers send or see metadata mappings', async () => {
    const viewer = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, viewer.id, w.account.id, 'Viewer');
    const viewerClient = await t.client().signIn(viewer.username, viewer.password as string);
    expect(
      (await send(viewerClient, webUpload(w.account.id), { fileName: 'a.mov', content: 'x' })).status,
    ).toBe(403);
    // The page asks first, by the same rule: the viewer may list the uploads, not add to them.
    const mayUpload = async (client: typeof viewerClient, kind = '') =>
      (await client.get<{ mayUpload: boolean }>(`/api/accounts/${w.account.id}/uploads${kind}`)).body
        .mayUpload;
    expect(await mayUpload(viewerClient)).toBe(false);
    expect(await mayUpload(w.editor.client)).toBe(true);
    expect(await mayUpload(w.accountManager.client, '?kind=metadataMapping')).toBe(true);
    expect(
      (await send(w.outsider.client, webUpload(w.account.id), { fileName: 'a.mov', content: 'x' })).status,
    ).toBe(403);
    expect((await send(w.admin.client, webUpload(999999), { fileName: 'a.mov', content: 'x' })).status).toBe(
      404,
    );
    expect(
      (await send(t.client(), webUpload(w.account.id), { fileName: 'a.mov', content: 'x' })).status,
    ).toBe(401);

    const mappingUrl = `/api/accounts/${w.account.id}/metadataMappings?uploadname=Reels`;
    const mapping = await send<Results<Upload>>(w.accountManager.client, mappingUrl, {
      fileName: 'reels.csv',
      content: 'reel,title\n1,Intro\n',
      type: 'text/csv',
    });
    expect(mapping.status).toBe(200);
    expect(mapping.body.results).toMatchObject({ kind: 'metadataMapping', name: 'Reels' });
    expect(
      (await send(w.accountManager.client, mappingUrl, { fileName: 'reels.xlsx', content: 'x' })).status,
    ).toBe(415);
    expect((await send(w.editor.client, mappingUrl, { fileName: 'reels.csv', content: 'x' })).status).toBe(
      403,
    );
    const managerList = await w.accountManager.client.get<Collection<Upload>>(
      `/api/accounts/${w.account.id}/uploads?kind=metadataMapping`,
    );
    expect(managerList.body.results.map((u) => u.fileName)).toEqual(['reels.csv']);
    expect(
      (await w.editor.client.get(`/api/accounts/${w.account.id}/uploads?kind=metadataMapping`)).status,
    ).toBe(403);
    const editorAll = await w.editor.client.get<Collection<Upload>>(`/api/accounts/${w.account.id}/uploads`);
    expect(editorAll.body.results.map((u) => u.kind)).not.toContain('metadataMapping');
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/uploads?kind=other`)).status).toBe(400);
  });

  it('downloads a document to the account users, a metadata mapping to its managers only', async () => {
    const doc = await send<Results<Upload>>(
      w.editor.client,
      webUpload(w.account.id, 'uploadname=Call%20sheet'),
      {
        fileName: 'Call sheet – Montag.pdf',
        content: '%PDF-1.4 call sheet',
        type: 'application/pdf',
      },
    );
    expect(doc.body.results).toMatchObject({ kind: 'document', status: 'ready' });
    const url = `/api/accounts/${w.account.id}/uploads/${doc.body.results.id}/file`;
    const got = await w.editor.client.get(url);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="Call sheet _ Montag.pdf"; filename*=UTF-8''Call%20sheet%20%E2%80%93%20Montag.pdf`,
    );
    expect(got.raw.rawPayload.toString()).toBe('%PDF-1.4 call sheet');
    const part = await w.editor.client.get(url, { range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.raw.rawPayload.toString()).toBe('%PDF');

    const mapping = await send<Results<Upload>>(
      w.accountManager.client,
      `/api/accounts/${w.account.id}/metadataMappings?uploadname=Shots`,
      { fileName: 'shots.csv', content: 'shot\n1\n', type: 'text/csv' },
    );
    const mappingUrl = `/api/accounts/${w.account.id}/uploads/${mapping.body.results.id}/file`;
    expect((await w.accountManager.client.get(mappingUrl)).status).toBe(200);
    expect((await w.editor.client.get(mappingUrl)).status).toBe(403);
    expect((await w.outsider.client.get(url)).status).toBe(403);
    // Another account's upload, a missing one, a bad id.
    expect(
      (await w.admin.client.get(`/api/accounts/${w.otherAccount.id}/uploads/${doc.body.results.id}/file`))
        .status,
    ).toBe(404);
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/uploads/999999/file`)).status).toBe(404);
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/uploads/abc/file`)).status).toBe(400);
  });

  it('keeps names without control and bidi characters: the upload, its file and its node', async () => {
    // A file name with characters a header may not hold travels in the RFC 5987 form (filename*).
    const sendNamed = <T>(url: string, fileName: string, content: string) => {
      const boundary = '----media-test-names';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="uploadfile"; filename*=UTF-8''${encodeURIComponent(fileName)}\r\nContent-Type: application/octet-stream\r\n\r\n`;
      return w.editor.client.request<T>({
        method: 'POST',
        url,
        body: Buffer.concat([
          Buffer.from(head),
          Buffer.from(content),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    };
    const deceptive = 'ünï©ødé \u202Efdp.exe.pdf';
    const doc = await sendNamed<Results<Upload>>(
      webUpload(w.account.id, new URLSearchParams({ uploadname: deceptive }).toString()),
      deceptive,
      '%PDF',
    );
    expect(doc.status).toBe(200);
    expect(doc.body.results).toMatchObject({ name: 'ünï©ødé fdp.exe.pdf', fileName: 'ünï©ødé fdp.exe.pdf' });
    const media = await sendNamed<Results<Upload & { nodePath: string }>>(
      webUpload(
        w.account.id,
        new URLSearchParams({
          uploadname: 'Line one\r\nLine two\u0007',
          location: 'Names\t\u2066x\u2069',
        }).toString(),
      ),
      // (The multipart parser takes no CR or LF in a file name: such a part is no file.)
      'take\t1\u200F.mov',
      'x',
    );
    expect(media.status).toBe(200);
    expect(media.body.results).toMatchObject({
      name: 'Line one Line two',
      fileName: 'take 1.mov',
      location: 'Names x',
      nodePath: '/Names x/Line one Line two',
    });
    // A name that is nothing once cleaned is refused like an empty one.
    const empty = await sendNamed<ErrorBody>(
      webUpload(w.account.id, new URLSearchParams({ uploadname: '\u202E\r\n' }).toString()),
      'a.mov',
      'x',
    );
    expect(empty.status).toBe(400);
  });
});
