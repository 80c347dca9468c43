import { Readable } from 'node:stream';
import type { PlayerMediaInfo } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ErrorBody, type TestApp, testDriver } from './harness.ts';
import { makeNodesWorld, type NodesWorld, VERSION_HEADERS } from './nodes-world.ts';
import { startS3Server } from './s3-server.ts';

/** The same answers from both storage drivers: DATA_DIR, and a bucket of a real S3-protocol server. */
describe.each(['local', 's3'] as const)(
  `media info, media files and thumbnails (${testDriver()}, %s storage)`,
  (storage) => {
    let t: TestApp;
    let w: NodesWorld;
    let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;

    beforeAll(async () => {
      s3 = storage === 's3' ? await startS3Server(['media']) : undefined;
      t = await buildTestApp(s3 ? s3.env('media', 'product/') : {});
      expect(t.ctx.storage.driver).toBe(storage);
      w = await makeNodesWorld(t);
    });
    afterAll(async () => {
      await t.close();
      await s3?.close();
    });

    it('gives the player its media info; export only for editors', async () => {
      const answer = await w.editor.client.get<{ results: PlayerMediaInfo }>(
        `/api/media/${w.clipMedia.id}`,
        VERSION_HEADERS,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results).toEqual({
        name: 'Clip A',
        mediaId: w.clipMedia.id,
        edl: null,
        type: 'media',
        duration: 12.5,
        proxyWidth: 640,
        proxyHeight: 360,
        accountName: w.account.name,
        accountId: w.account.id,
        exportEnabled: true,
      });
      const viewer = await w.viewer.client.get<{ results: PlayerMediaInfo }>(`/api/media/${w.clipMedia.id}`);
      expect(viewer.body.results.exportEnabled).toBe(false);
    });

    it('hides media from strangers and other accounts', async () => {
      const status = async (client: typeof w.editor.client, url: string) => (await client.get(url)).status;
      expect(await status(w.outsider.client, `/api/media/${w.clipMedia.id}`)).toBe(404);
      expect(await status(w.editor.client, `/api/media/${w.otherMedia.id}`)).toBe(404);
      expect(await status(w.editor.client, '/api/media/999999')).toBe(404);
      expect(await status(t.client(), `/api/media/${w.clipMedia.id}`)).toBe(401);
      const notFound = await w.editor.client.get<ErrorBody>(`/api/media/${w.otherMedia.id}`);
      expect(notFound.body.error.message).toBe('Media not found');
    });

    it('serves the media file whole and by byte range', async () => {
      const whole = await w.viewer.client.get(`/api/media/${w.clipMedia.id}/content`);
      expect(whole.status).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.raw.rawPayload.equals(w.videoBytes)).toBe(true);
      const part = await w.viewer.client.get(
        `/api/media/${w.clipMedia.id}/content?accountId=${w.account.id}`,
        // A byte range goes as it is, whatever encodings the player accepts (its offsets are of the file).
        { range: 'bytes=100-199', 'accept-encoding': 'gzip, deflate, br' },
      );
      expect(part.status).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.headers['content-range']).toBe(`bytes 100-199/${w.videoBytes.length}`);
      expect(part.raw.rawPayload.equals(w.videoBytes.subarray(100, 200))).toBe(true);
      const outside = await w.viewer.client.get(`/api/media/${w.clipMedia.id}/content`, {
        range: 'bytes=9000-9100',
      });
      expect(outside.status).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${w.videoBytes.length}`);
    });

    it('reads byte ranges as RFC 9110 does: a suffix longer than the file is the whole file, a malformed range is ignored', async () => {
      const url = `/api/media/${w.clipMedia.id}/content`;
      const size = w.videoBytes.length;
      const suffix = await w.viewer.client.get(url, { range: `bytes=-${size + 70000}` });
      expect(suffix.status).toBe(206);
      expect(suffix.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
      expect(suffix.raw.rawPayload.equals(w.videoBytes)).toBe(true);
      const tail = await w.viewer.client.get(url, { range: 'bytes=-100' });
      expect(tail.status).toBe(206);
      expect(tail.raw.rawPayload.equals(w.videoBytes.subarray(size - 100))).toBe(true);
      for (const malformed of ['bytes=-1e3', 'bytes=1e2-3e2', 'bytes=200-100', 'bytes=0x10-', 'items=0-10']) {
        const whole = await w.viewer.client.get(url, { range: malformed });
        expect(whole.status, malformed).toBe(200);
        expect(whole.headers['content-range'], malformed).toBeUndefined();
        expect(whole.raw.rawPayload.equals(w.videoBytes), malformed).toBe(true);
      }
      const listed = await w.viewer.client.get(url, { range: 'bytes= 0-9 , ' });
      expect(listed.status).toBe(206);
      expect(listed.headers['content-range']).toBe(`bytes 0-9/${size}`);
      expect((await w.viewer.client.get(url, { range: 'bytes=-0' })).status).toBe(416);
    });

    it('answers 304 to a current copy, and the whole file when If-Range names another', async () => {
      const url = `/api/media/${w.clipMedia.id}/content`;
      const first = await w.viewer.client.get(url);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      expect((await w.viewer.client.get(url, { 'if-none-match': etag })).status).toBe(304);
      const current = await w.viewer.client.get(url, { range: 'bytes=0-9', 'if-range': etag });
      expect(current.status).toBe(206);
      const stale = await w.viewer.client.get(url, { range: 'bytes=0-9', 'if-range': '"another"' });
      expect(stale.status).toBe(200);
      expect(stale.raw.rawPayload.equals(w.videoBytes)).toBe(true);
    });

    it('answers 404 when the stored file is gone', async () => {
      const key = w.clipMedia.storagePath as string;
      const chunks: Buffer[] = [];
      for await (const chunk of await t.ctx.storage.read(key)) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      await t.ctx.storage.remove(key);
      try {
        const answer = await w.viewer.client.get<ErrorBody>(`/api/media/${w.clipMedia.id}/content`);
        expect(answer.status).toBe(404);
        expect(answer.body.error.message).toBe('Media file not found');
      } finally {
        await t.ctx.storage.putStream(key, Readable.from([bytes]));
      }
    });

    it('answers 404 for media without a file, another accountId or strangers', async () => {
      const status = async (client: typeof w.editor.client, url: string) => (await client.get(url)).status;
      expect(await status(w.editor.client, `/api/media/${w.fileless.id}/content`)).toBe(404);
      expect(
        await status(w.editor.client, `/api/media/${w.clipMedia.id}/content?accountId=${w.otherAccount.id}`),
      ).toBe(404);
      expect(await status(w.outsider.client, `/api/media/${w.clipMedia.id}/content`)).toBe(404);
      expect(await status(t.client(), `/api/media/${w.clipMedia.id}/content`)).toBe(401);
    });

    it('serves a thumbnail with an ETag, and 304 when the copy is current', async () => {
      const url = `/api/thumbs/${w.thumb.id}/image.jpg`;
      const first = await w.viewer.client.get(url);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('image/jpeg');
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.raw.rawPayload.equals(w.jpeg)).toBe(true);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await w.viewer.client.get(url, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(etag);
      expect((await w.outsider.client.get(url)).status).toBe(404);
      expect((await w.editor.client.get('/api/thumbs/999999/image.jpg')).status).toBe(404);
      expect((await t.client().get(url)).status).toBe(401);
    });
  },
);
