import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { MSG_UPLOAD_TOO_LARGE, PUBLISH_MESSAGES } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../src/modules/uploads/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import { buildTestApp, makeWorld, type TestApp, type TestClient, testDriver, type World } from './harness.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe(`interrupted uploads (${testDriver()})`, () => {
  it('removes the temporary files that interrupted uploads left in DATA_DIR/tmp at start, and nothing else', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-tmp-'));
    const tmp = path.join(dataDir, 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const name of ['left-by-kill.part', 'not-an-upload.txt']) {
      fs.writeFileSync(path.join(tmp, name), 'half a file');
      fs.utimesSync(path.join(tmp, name), twoHoursAgo, twoHoursAgo);
    }
    // Written just now: on PostgreSQL another instance sharing DATA_DIR may be receiving it.
    fs.writeFileSync(path.join(tmp, 'being-written.part'), 'the start of a file');
    const scratch =
      testDriver() === 'postgres'
        ? await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'test')
        : undefined;
    const { ctx } = await createContext(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      }),
      { logStream: quiet(), database: { inMemory: true, poolSize: 2 } },
    );
    try {
      const left = fs.readdirSync(tmp).sort();
      expect(left).toEqual(
        testDriver() === 'postgres' ? ['being-written.part', 'not-an-upload.txt'] : ['not-an-upload.txt'],
      );
    } finally {
      await ctx.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // A fresh database is migrated here, as in a harness's beforeAll (hookTimeout).
  }, 120_000);
});

describe(`declared upload size over the limit (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ UPLOAD_MAX_BYTES: '1000' });
    w = await makeWorld(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  /**
   * Declares a large multipart body over real HTTP but sends only its first bytes, then waits for the
   * answer: a server that read the body before answering would never answer.
   */
  const declareLarge = (client: TestClient, url: string, declaredBytes: number) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
      const boundary = 'declared-length-test';
      const request = http.request(`${base}${url}`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(declaredBytes),
          cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          [t.config.csrfHeaderName]: client.csrfToken as string,
        },
      });
      const timer = setTimeout(() => {
        request.destroy();
        reject(new Error('no answer before the body was sent'));
      }, 5000);
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += String(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          request.destroy();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) });
        });
      });
      request.on('error', () => {});
      request.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="uploadfile"; filename="big.mov"\r\nContent-Type: video/quicktime\r\n\r\nfirst bytes`,
      );
    });

  const tmpFiles = () => {
    const tmp = path.join(t.config.dataDir, 'tmp');
    return fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  };

  it('answers a web upload declaring more than UPLOAD_MAX_BYTES with 413 before reading it, and stores nothing', async () => {
    const client = w.editor.client;
    const answer = await declareLarge(
      client,
      `/api/accounts/${w.account.id}/uploads?uploadname=Big`,
      10_000_000,
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: { code: 'too_large', message: MSG_UPLOAD_TOO_LARGE(1000) } });
    expect(answer.headers.connection).toBe('close');
    expect(tmpFiles()).toEqual([]);
    expect(await t.ctx.db.select().from(uploads).where(eq(uploads.accountId, w.account.id))).toEqual([]);
  });

  it('answers a publishing icon declaring more than 1 MB with 413 before reading it', async () => {
    const answer = await declareLarge(w.admin.client, `/api/sites/${w.site.id}/publishIcons`, 5_000_000);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: { code: 'too_large', message: PUBLISH_MESSAGES.iconTooLarge } });
    expect(tmpFiles()).toEqual([]);
  });
});
