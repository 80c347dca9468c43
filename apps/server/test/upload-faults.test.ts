import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  type Diagnostics,
  MSG_UPLOAD_TOO_LARGE,
  PUBLISH_MESSAGES,
  type UserNotification,
} from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodes } from '../src/modules/nodes/tables.ts';
import { uploads } from '../src/modules/uploads/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import {
  MSG_STORAGE_FULL,
  MSG_STORAGE_UNWRITABLE,
  STORAGE_UNWRITABLE_REASONS,
  storageFaultOf,
} from '../src/platform/storage/faults.ts';
import {
  buildTestApp,
  eventually,
  makeWorld,
  multipartFile,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';
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

describe('storage faults by error code', () => {
  const failed = (code: string) => Object.assign(new Error(`${code}: what the system says`), { code });
  it('tells a full storage (507) from one that cannot be written (503), in words a person can act on', () => {
    for (const code of ['ENOSPC', 'EDQUOT'])
      expect(storageFaultOf(failed(code))).toMatchObject({ status: 507, message: MSG_STORAGE_FULL });
    expect(storageFaultOf(failed('EROFS'))).toMatchObject({
      status: 503,
      message: 'The media storage cannot be written: its file system is read-only',
    });
    for (const code of ['EACCES', 'EPERM', 'EIO'])
      expect(storageFaultOf(failed(code))).toMatchObject({
        status: 503,
        message: MSG_STORAGE_UNWRITABLE(STORAGE_UNWRITABLE_REASONS[code] as string),
      });
    // An S3-compatible store's refusals, by the AWS SDK's error names.
    expect(storageFaultOf(Object.assign(new Error('x'), { name: 'AccessDenied' }))?.status).toBe(503);
    expect(storageFaultOf(Object.assign(new Error('x'), { name: 'XMinioStorageFull' }))?.status).toBe(507);
    // Anything else is no storage fault: it stays what it was.
    for (const error of [failed('ENOENT'), failed('ECONNRESET'), new Error('plain'), 'text', undefined])
      expect(storageFaultOf(error)).toBeUndefined();
  });
});

/** Whether this process may mount a small tmpfs (root, or CAP_SYS_ADMIN): the real full and read-only disks. */
const mayMount = (() => {
  if (process.platform !== 'linux') return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'media-mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
})();

// Root writes through chmod, so a full or read-only disk is made for real: a small tmpfs mounted over the
// folder. Mounting needs root or CAP_SYS_ADMIN (CI runs as root); without it these tests are skipped.
describe.skipIf(!mayMount)(
  `a full or read-only media storage (${testDriver()}; mounts a small tmpfs)`,
  () => {
    let t: TestApp;
    let w: World;
    const mounted: string[] = [];
    beforeAll(async () => {
      t = await buildTestApp();
      w = await makeWorld(t);
    });
    afterAll(async () => {
      for (const dir of mounted.reverse()) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      await t.close();
    });

    const folder = (name: 'media' | 'tmp') => path.join(t.config.dataDir, name);
    const mount = (name: 'media' | 'tmp', size: string) => {
      fs.mkdirSync(folder(name), { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder(name)]);
      mounted.push(folder(name));
    };
    const unmount = (name: 'media' | 'tmp') => {
      execFileSync('umount', [folder(name)]);
      mounted.splice(mounted.indexOf(folder(name)), 1);
    };
    const filesUnder = (dir: string): string[] =>
      fs.existsSync(dir)
        ? fs
            .readdirSync(dir, { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => path.join(entry.parentPath, entry.name))
        : [];
    const upload = (name: string, bytes: number) => {
      const { body, headers } = multipartFile({
        fileName: `${name}.mov`,
        content: Buffer.alloc(bytes, 7),
        type: 'video/quicktime',
      });
      return w.editor.client.request<{ error: { code: string; message: string } }>({
        method: 'POST',
        url: `/api/accounts/${w.account.id}/uploads?uploadname=${name}`,
        body,
        headers,
      });
    };
    /** Nothing of a failed upload is left: no temporary file, no stored file, no upload row, no node. */
    const leftNothing = async (name: string) => {
      expect(filesUnder(folder('tmp'))).toEqual([]);
      expect(filesUnder(folder('media')).filter((file) => file.includes(name))).toEqual([]);
      expect(
        await t.ctx.db
          .select()
          .from(uploads)
          .where(and(eq(uploads.accountId, w.account.id), eq(uploads.name, name))),
      ).toEqual([]);
      expect(
        await t.ctx.db
          .select()
          .from(nodes)
          .where(and(eq(nodes.accountId, w.account.id), eq(nodes.name, name))),
      ).toEqual([]);
    };
    const alerted = async (message: string) => {
      const me = await w.admin.client.get<{ results: { id: number } }>('/api/me');
      return eventually(async () => {
        const list = await w.admin.client.get<{ results: UserNotification[] }>(
          `/api/users/${me.body.results.id}/notifications`,
        );
        return list.body.results.find((n) => n.message === message);
      });
    };

    it('answers 503 saying why when the media storage is read-only, alerts the administrators, keeps nothing, and takes uploads again once it is writable', async () => {
      mount('media', '1m');
      execFileSync('mount', ['-o', 'remount,ro', folder('media')]);
      const refused = await upload('ReadOnly', 2000);
      expect(refused.status).toBe(503);
      const message = MSG_STORAGE_UNWRITABLE(STORAGE_UNWRITABLE_REASONS.EROFS as string);
      expect(refused.body.error.message).toBe(message);
      await leftNothing('ReadOnly');
      expect(await alerted(message)).toMatchObject({ type: 'problem', link: '/diagnostic' });
      // Where the alert leads, the storage check says it in both words: ours, and the system's.
      const diagnostics = await w.admin.client.get<{ results: Diagnostics }>('/api/diagnostics');
      expect(diagnostics.body.results.checks.find((check) => check.name === 'storage')).toMatchObject({
        status: 'error',
        message: expect.stringMatching(new RegExp(`^${message}.*EROFS`)),
      });

      execFileSync('mount', ['-o', 'remount,rw', folder('media')]);
      expect((await upload('Writable', 2000)).status).toBe(200);
      unmount('media');
    });

    it('answers 507 when DATA_DIR/tmp or the media storage is full, alerts the administrators, keeps no partial file, and takes uploads again once there is space', async () => {
      mount('tmp', '64k');
      const intoFullTmp = await upload('FullTmp', 200_000);
      expect(intoFullTmp.status).toBe(507);
      expect(intoFullTmp.body.error.message).toBe(MSG_STORAGE_FULL);
      await leftNothing('FullTmp');
      unmount('tmp');

      // The media storage on a disk of its own (a volume): the complete file is copied over, and does not fit.
      mount('media', '64k');
      const intoFullMedia = await upload('FullMedia', 200_000);
      expect(intoFullMedia.status).toBe(507);
      expect(intoFullMedia.body.error.message).toBe(MSG_STORAGE_FULL);
      await leftNothing('FullMedia');
      expect(await alerted(MSG_STORAGE_FULL)).toMatchObject({ type: 'problem' });
      unmount('media');

      expect((await upload('RoomAgain', 200_000)).status).toBe(200);
    });
  },
);
