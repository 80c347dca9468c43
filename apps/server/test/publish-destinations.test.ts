import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_SIGNATURE_HEADER } from '../src/modules/publishing/destinations/index.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { startFtpServer } from './ftp-server.ts';
import { testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { S3RVER_CREDENTIALS, startS3Server } from './s3-server.ts';

/** Publish destinations against real peers on 127.0.0.1: an HTTP receiver (webhook), FTP and S3 servers. */
describe(`publish destinations (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  beforeAll(async () => {
    world = await makePublishRunsWorld();
  });
  afterAll(() => world.close());

  const run = (name: string) => world.publishClip(name);

  it('calls a webhook with the published media, signed with HMAC-SHA256 of the body', async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString(),
          signature: request.headers[WEBHOOK_SIGNATURE_HEADER] as string | undefined,
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      const url = `http://127.0.0.1:${port}/hook`;
      await world.button(
        'Hooked',
        { moduleId: 'as-is', options: {} },
        { moduleId: 'webhook', options: { url, secret: 's3cret' } },
      );
      const done = await run('Hooked');
      expect(done?.status, JSON.stringify(done?.log)).toBe('done');
      expect(done?.outputs).toEqual([{ moduleId: 'webhook', location: url }]);
      const [call] = received;
      const expected = `sha256=${createHmac('sha256', 's3cret')
        .update(call?.body ?? '')
        .digest('hex')}`;
      expect(call?.signature).toBe(expected);
      const payload = JSON.parse(call?.body ?? '{}');
      expect(payload).toMatchObject({
        event: 'published',
        node: { path: world.clipPath, name: 'Interview' },
        button: { name: 'Hooked' },
        file: { name: 'Interview.mp4' },
      });
      expect(payload.file.sha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      receiver.close();
    }
  });

  it('uploads to an FTP server into its directory, complete under its name', async () => {
    const root = fs.mkdtempSync(path.join(world.work, 'ftp-'));
    const server = await startFtpServer({ root, username: 'desk', password: 'pa55' });
    try {
      const { host } = server;
      const options = { host, username: 'desk', password: 'pa55', directory: '/incoming/news' };
      await world.button('Partner', { moduleId: 'as-is', options: {} }, { moduleId: 'ftp', options });
      const done = await run('Partner');
      expect(done?.status, JSON.stringify(done?.log)).toBe('done');
      expect(done?.outputs).toEqual([
        { moduleId: 'ftp', location: `ftp://${host}/incoming/news/Interview.mp4` },
      ]);
      const received = path.join(root, 'incoming', 'news', 'Interview.mp4');
      expect(videoOf(ffprobe(received))).toMatchObject({ codec_name: 'h264', width: 320 });
      expect(fs.readdirSync(path.dirname(received))).toEqual(['Interview.mp4']);
    } finally {
      await server.close();
    }
  });
  it('puts the file into an S3 bucket under its prefix, never over an earlier one', async () => {
    const s3 = await startS3Server(['deliveries']);
    try {
      await world.button(
        'Bucket',
        { moduleId: 'as-is', options: {} },
        {
          moduleId: 's3',
          options: {
            bucket: 'deliveries',
            prefix: 'news/today',
            endpoint: s3.endpoint,
            ...S3RVER_CREDENTIALS,
          },
        },
      );
      const first = await run('Bucket');
      expect(first?.status, JSON.stringify(first?.log)).toBe('done');
      expect(first?.outputs).toEqual([
        { moduleId: 's3', location: 's3://deliveries/news/today/Interview.mp4' },
      ]);
      const second = await run('Bucket');
      expect(second?.outputs[0]?.location).toBe('s3://deliveries/news/today/Interview (2).mp4');

      const client = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      const object = await client.send(
        new GetObjectCommand({ Bucket: 'deliveries', Key: 'news/today/Interview.mp4' }),
      );
      const file = path.join(world.work, 'from-bucket.mp4');
      fs.writeFileSync(
        file,
        await (object.Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray(),
      );
      expect(videoOf(ffprobe(file))).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
      client.destroy();
    } finally {
      await s3.close();
    }
  });
});
