import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  CHANNELS,
  PUBLISH_ICON_MAX_BYTES,
  PUBLISH_MESSAGES,
  type PublishButton,
  type PublishIcon,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rasteriseSvg } from '../src/modules/publishing/icons.ts';
import { publishIcons } from '../src/modules/publishing/tables.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  multipartFile,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';
import {
  buttonBody,
  createButton,
  ctxUrl,
  listButtons,
  makePublishingWorld,
  type PublishingWorld,
  publishedOn,
} from './publishing-world.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <script>alert('never served')</script>
  <circle cx="32" cy="32" r="30" fill="#c00"/>
</svg>`;

/**
 * A "billion laughs" of <use>: each level draws the one below `width` times, so a file of about 2 KB
 * draws width^levels rectangles (10^8 here), which tied a render thread for seconds.
 */
const fanOutSvg = (levels = 8, width = 10) => {
  let defs = '<g id="l0"><rect width="1" height="1" fill="#c00"/></g>';
  for (let level = 1; level <= levels; level++)
    defs += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(width)}</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><defs>${defs}</defs><use href="#l${levels}"/></svg>`;
};

/** A PNG that only declares its size (IHDR): enough for a decoder to learn it, nothing to decode. */
const pngDeclaring = (width: number, height: number) => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grey, no interlace
  const rows = zlib.deflateSync(Buffer.alloc(0));
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

describe(`publishing icons (${testDriver()})`, () => {
  let t: TestApp;
  let w: PublishingWorld;
  let bigPng: Buffer;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makePublishingWorld(t);
    bigPng = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  const upload = <T>(
    client: TestClient,
    scope: 'accounts' | 'sites',
    id: number,
    file: Parameters<typeof multipartFile>[0],
  ) => {
    const { body, headers } = multipartFile(file);
    return client.request<T>({ method: 'POST', url: ctxUrl(scope, id, 'publishIcons'), body, headers });
  };
  const iconRows = async () => (await t.ctx.db.select().from(publishIcons)).length;

  it('accepts a PNG (by its content, whatever its name), stores it as a PNG of at most 256 px and serves it', async () => {
    const sent = await upload<Results<PublishIcon>>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'logo.dat',
      content: bigPng,
      type: 'application/octet-stream',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const icon = sent.body.results;
    expect(icon).toMatchObject({ from: 'account', name: 'logo', url: `/api/publishIcons/${icon.id}/image` });
    const image = await w.editor.client.get(icon.url);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, no-cache');
    const bytes = image.raw.rawPayload;
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 256, height: 128 });
    const [row] = await t.ctx.db.select().from(publishIcons).where(eq(publishIcons.id, icon.id));
    expect(fs.existsSync(path.join(t.config.dataDir, row?.storagePath as string))).toBe(true);
    expect(await publishedOn(t, CHANNELS.publishIcons('accounts', w.account.id))).toContain(icon.id);
  });

  it('rasterises an SVG so that no markup is ever served, and answers 304 to a current ETag', async () => {
    const sent = await upload<Results<PublishIcon>>(w.siteManager.client, 'sites', w.site.id, {
      fileName: 'badge.svg',
      content: SVG,
      type: 'image/svg+xml',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const image = await w.siteManager.client.get(sent.body.results.url);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.raw.rawPayload.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(image.raw.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    const etag = image.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await w.siteManager.client.get(sent.body.results.url, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.raw.rawPayload.length).toBe(0);
    // The site's icon reaches the account's users too, as an icon from 'other'.
    const listed = await w.editor.client.get<Collection<PublishIcon>>(
      ctxUrl('accounts', w.account.id, 'publishIcons'),
    );
    expect(listed.body.results.find((i) => i.id === sent.body.results.id)?.from).toBe('other');
    expect(listed.body.channel).toBe(CHANNELS.publishIcons('accounts', w.account.id));
    expect((await w.editor.client.get(sent.body.results.url)).status).toBe(200);
    expect((await w.outsider.client.get(sent.body.results.url)).status).toBe(404);
  });

  it('refuses an icon over 1 MB (413) and one that is not an image (415), storing nothing', async () => {
    const before = await iconRows();
    const iconsFolder = path.join(t.config.dataDir, 'publishing', 'accounts', String(w.account.id), 'icons');
    const filesBefore = fs.readdirSync(iconsFolder);
    const huge = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'huge.png',
      content: Buffer.concat([bigPng, Buffer.alloc(PUBLISH_ICON_MAX_BYTES)]),
      type: 'image/png',
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe(PUBLISH_MESSAGES.iconTooLarge);
    const text = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'fake.png',
      content: 'this is not a picture',
      type: 'image/png',
    });
    expect(text.status).toBe(415);
    expect(text.body.error.message).toBe(PUBLISH_MESSAGES.iconType);
    const tiff = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'scan.png',
      content: await sharp(bigPng).tiff().toBuffer(),
    });
    expect(tiff.status).toBe(415);
    const noFile = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
      field: 'other',
      fileName: 'x.png',
      content: bigPng,
    });
    expect(noFile.status).toBe(400);
    expect(await iconRows()).toBe(before);
    expect(fs.readdirSync(iconsFolder)).toEqual(filesBefore);
    expect(fs.readdirSync(path.join(t.config.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses an SVG whose <use> references multiply (400, at once), and keeps answering others while 8 such uploads run', async () => {
    const svg = fanOutSvg();
    expect(svg.length).toBeLessThan(2500);
    const before = await iconRows();
    const started = Date.now();
    const refused = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'laughs.svg',
      content: svg,
      type: 'image/svg+xml',
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'This SVG icon cannot be used: it draws more than 10000 elements once its references (<use>, url(#…)) are followed. Simplify it, or upload a PNG instead',
    );

    const uploads = Array.from({ length: 8 }, (_, i) =>
      upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
        fileName: `laughs-${i}.svg`,
        content: fanOutSvg(8 + (i % 3), 10),
        type: 'image/svg+xml',
      }),
    );
    const meStarted = Date.now();
    const me = await w.editor.client.get('/api/me');
    const meTook = Date.now() - meStarted;
    const answers = await Promise.all(uploads);
    expect(me.status).toBe(200);
    expect(meTook).toBeLessThan(1000);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(400));
    expect(await iconRows()).toBe(before);
  });

  it('refuses SVGs with a document type, outside references or a reference loop (400), and markup that is no SVG (415)', async () => {
    const refusals: [string, string][] = [
      [
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
        'it declares a document type or entities',
      ],
      [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="9" height="9"/></svg>',
        'it refers to content outside the file',
      ],
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://example.com/a.css);</style><rect width="9" height="9"/></svg>',
        'it refers to content outside the file',
      ],
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><g><use href="#a"/></g></g></svg>',
        'its references form a loop',
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg"><mask id="m">${'<rect width="9" height="9"/>'.repeat(200)}</mask>${'<rect width="9" height="9" mask="url(#m)"/>'.repeat(60)}</svg>`,
        'it draws more than 10000 elements',
      ],
    ];
    for (const [svg, reason] of refusals) {
      const answer = await upload<ErrorBody>(w.siteManager.client, 'sites', w.site.id, {
        fileName: 'refused.svg',
        content: svg,
      });
      expect(answer.status, svg.slice(0, 80)).toBe(400);
      expect(answer.body.error.message).toContain(`This SVG icon cannot be used: ${reason}`);
    }
    for (const markup of [
      '<html><body>hello</body></html>',
      '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>',
    ]) {
      const answer = await upload<ErrorBody>(w.siteManager.client, 'sites', w.site.id, {
        fileName: 'markup.svg',
        content: markup,
      });
      expect(answer.status, markup).toBe(415);
    }
    // A gradient fill through a style sheet, as drawing programs write it, is fine.
    const styled = await upload<Results<PublishIcon>>(w.siteManager.client, 'sites', w.site.id, {
      fileName: 'styled.svg',
      content:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><style>.a{fill:url(#g);}</style><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#00f"/></linearGradient></defs><rect class="a" width="10" height="10"/></svg>',
    });
    expect(styled.status, JSON.stringify(styled.body)).toBe(200);
    const image = await w.siteManager.client.get(styled.body.results.url);
    expect(await sharp(image.raw.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 256,
      height: 256,
    });
  });

  it('stops an SVG render at its time limit, and refuses a picture of more than 4096 × 4096 pixels unread', async () => {
    const started = Date.now();
    await expect(rasteriseSvg(Buffer.from(SVG), 1)).rejects.toThrow(
      'This SVG icon cannot be used: rendering it took longer than 0.001 s',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const [width, height] of [
      [5000, 5000],
      [20_000, 20_000],
    ] as const) {
      const huge = await upload<ErrorBody>(w.accountManager.client, 'accounts', w.account.id, {
        fileName: 'huge.png',
        content: pngDeclaring(width, height),
      });
      expect(huge.status).toBe(400);
      expect(huge.body.error.message).toBe('The icon has too many pixels (at most 16,777,216, 4096 × 4096)');
    }
  });

  it('lets only managers upload and trash icons; others get 403, outsiders 404, strangers 401', async () => {
    const file = { fileName: 'x.png', content: bigPng };
    expect((await upload(w.editor.client, 'accounts', w.account.id, file)).status).toBe(403);
    expect((await upload(w.accountManager.client, 'sites', w.site.id, file)).status).toBe(403);
    expect((await upload(w.outsider.client, 'accounts', w.account.id, file)).status).toBe(404);
    expect((await w.outsider.client.get(ctxUrl('accounts', w.account.id, 'publishIcons'))).status).toBe(404);
    expect((await t.client().get(ctxUrl('accounts', w.account.id, 'publishIcons'))).status).toBe(401);
    const sent = await upload<Results<PublishIcon>>(w.accountManager.client, 'accounts', w.account.id, file);
    expect((await w.editor.client.post(`/api/publishIcons/${sent.body.results.id}/trash`)).status).toBe(403);
    expect((await w.outsider.client.post(`/api/publishIcons/${sent.body.results.id}/trash`)).status).toBe(
      404,
    );
    expect((await w.admin.client.post('/api/publishIcons/999999/trash')).status).toBe(404);
    expect((await w.admin.client.get('/api/publishIcons/999999/image')).status).toBe(404);
  });

  it("a button takes the context's icons or its site's, never another account's; trash takes the icon off", async () => {
    const own = await upload<Results<PublishIcon>>(w.accountManager.client, 'accounts', w.account.id, {
      fileName: 'own.png',
      content: bigPng,
    });
    const foreign = await upload<Results<PublishIcon>>(w.admin.client, 'accounts', w.otherAccount.id, {
      fileName: 'foreign.png',
      content: bigPng,
    });
    const site = await upload<Results<PublishIcon>>(w.siteManager.client, 'sites', w.site.id, {
      fileName: 'site.png',
      content: bigPng,
    });
    const refused = await w.accountManager.client.post<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishButtons'),
      buttonBody('Foreign icon', { iconId: foreign.body.results.id }),
    );
    expect(refused.status).toBe(400);
    const fromSite = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Site icon', { iconId: site.body.results.id }),
    );
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Own icon', { iconId: own.body.results.id }),
    );
    const trashed = await w.accountManager.client.post(`/api/publishIcons/${own.body.results.id}/trash`);
    expect(trashed.status).toBe(200);
    const list = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    const byId = (buttonId: number) => list.results.find((b) => b.id === buttonId) as PublishButton;
    expect(byId(id).iconId).toBeNull();
    expect(byId(fromSite).iconId).toBe(site.body.results.id);
    const icons = await w.accountManager.client.get<Collection<PublishIcon>>(
      ctxUrl('accounts', w.account.id, 'publishIcons'),
    );
    expect(icons.body.results.map((i) => i.id)).not.toContain(own.body.results.id);
    expect((await w.accountManager.client.get(own.body.results.url)).status).toBe(404);
  });
});
