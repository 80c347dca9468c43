import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { createStorage, type MediaStorage } from '../src/platform/storage/index.ts';
import { startS3Server } from './s3-server.ts';

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** A stream that gives `bytes` and then fails, as a cut upload does. */
const failingAfter = (bytes: Buffer) =>
  new Readable({
    read() {
      this.push(bytes);
      this.destroy(new Error('connection cut'));
    },
  });

let s3: Awaited<ReturnType<typeof startS3Server>>;
const dataDirs: string[] = [];
const storageFor = async (driver: 'local' | 's3', env: Record<string, string> = {}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
  dataDirs.push(dataDir);
  return createStorage(
    loadConfig({ DATA_DIR: dataDir, ...(driver === 's3' ? s3.env('media', 'tenant/a/') : {}), ...env }),
  );
};

beforeAll(async () => {
  s3 = await startS3Server(['media', 'other']);
});
afterAll(async () => {
  await s3.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(['local', 's3'] as const)('media storage (%s)', (driver) => {
  let storage: MediaStorage;
  beforeAll(async () => {
    storage = await storageFor(driver);
  });
  afterAll(() => storage.close());

  it('stores a stream in several parts and reads it whole and by range', async () => {
    // 17 MiB: three parts of a multipart upload.
    const content = randomBytes(17 * 1024 * 1024 + 123);
    const { size } = await storage.putStream('media/big.bin', Readable.from([content]));
    expect(size).toBe(content.length);
    expect(await storage.stat('media/big.bin')).toEqual({ size: content.length });
    expect((await readAll(await storage.read('media/big.bin'))).equals(content)).toBe(true);
    const start = 9 * 1024 * 1024 - 10;
    const part = await readAll(await storage.read('media/big.bin', { start, end: start + 99 }));
    expect(part.equals(content.subarray(start, start + 100))).toBe(true);
  });

  it('stores a local file, consuming it, and gives a local copy to read', async () => {
    const file = path.join(os.tmpdir(), `storage-put-${process.pid}-${driver}.bin`);
    fs.writeFileSync(file, 'proxy bytes');
    expect(await storage.putFile('media/proxy.mp4', file)).toEqual({ size: 11 });
    expect(fs.existsSync(file)).toBe(false);
    const copy = await storage.localCopy('media/proxy.mp4');
    expect(fs.readFileSync(copy.path, 'utf8')).toBe('proxy bytes');
    await copy.release();
    // A download is removed on release; the local driver hands out the stored file itself.
    expect(fs.existsSync(copy.path)).toBe(driver === 'local');
  });

  it('shows nothing under a key whose stream failed half-way', async () => {
    await expect(storage.putStream('media/cut.bin', failingAfter(randomBytes(1000)))).rejects.toThrow();
    expect(await storage.stat('media/cut.bin')).toBeUndefined();
    await expect(storage.read('media/cut.bin')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes objects, a missing one without error', async () => {
    await storage.putStream('thumbs/1/a.jpg', Readable.from([Buffer.from('jpeg')]));
    await storage.remove('thumbs/1/a.jpg');
    expect(await storage.stat('thumbs/1/a.jpg')).toBeUndefined();
    await expect(storage.remove('thumbs/1/never.jpg')).resolves.toBeUndefined();
  });

  it('refuses keys that leave the store', async () => {
    for (const key of ['../etc/passwd', '/abs/file', 'a//b', 'a/./b', ''])
      await expect(storage.putStream(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(
        /Not a storage key/,
      );
  });
});

describe('S3 storage settings', () => {
  it('keeps objects under the prefix, apart from other prefixes of the bucket', async () => {
    const a = await storageFor('s3');
    const b = await storageFor('s3', { STORAGE_URL: 's3://media/tenant/b/' });
    await a.putStream('media/same.bin', Readable.from([Buffer.from('from a')]));
    expect(await b.stat('media/same.bin')).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('stops the start with a clear message when the bucket is missing or the keys are wrong', async () => {
    await expect(storageFor('s3', { STORAGE_URL: 's3://no-such-bucket/x/' })).rejects.toThrow(
      'STORAGE_URL=s3://no-such-bucket/x/: the bucket does not exist',
    );
    // s3rver checks the key id, not version 4 signatures.
    const wrongKeys = storageFor('s3', {
      AWS_ACCESS_KEY_ID: 'NOT-A-KEY',
      AWS_SECRET_ACCESS_KEY: 'wrong-secret',
    });
    await expect(wrongKeys).rejects.toThrow(/access is refused/);
    await expect(wrongKeys).rejects.not.toThrow(/wrong-secret/);
    await expect(storageFor('s3', { S3_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(
      /the store is not reachable/,
    );
  });
});
