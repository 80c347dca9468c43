import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { msgOutboundRefused, type Phase } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_FTP_LOGIN_REFUSED } from '../src/modules/publishing/destinations/ftp.ts';
import { WEBHOOK_SIGNATURE_HEADER } from '../src/modules/publishing/destinations/index.ts';
import { publishButtons, publishes } from '../src/modules/publishing/tables.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { startFtpServer } from './ftp-server.ts';
import { eventually, testDriver } from './harness.ts';
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
      // The media's link works for the receiver, who has no session: signed, for the proxy.
      const link = String(payload.media.link);
      expect(link).toContain(`/api/media/${payload.media.id}/download?file=proxy&`);
      const fetched = await world.t.app.inject({
        method: 'GET',
        url: link.replace(world.t.config.publicUrl, ''),
      });
      expect(fetched.statusCode).toBe(200);
      expect(fetched.rawPayload.length).toBeGreaterThan(1000);
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

  describe('the outbound guard (issue 30): loopback refused as without OUTBOUND_ALLOW_LOOPBACK', () => {
    // One listener stands for every local peer: a refused destination must not even connect to it.
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => listener.close(resolve)));

    const loopback = (address: string) => msgOutboundRefused(address, 'loopback', 'publishing');
    const linkLocal = msgOutboundRefused('169.254.169.254', 'link-local', 'publishing');

    let serial = 0;
    /**
     * A button whose destination options were stored as given (as by a button saved before the guard, since
     * saving refuses a literal refused address), published with loopback refused: the publish once ended.
     */
    const publishAimedAt = async (moduleId: string, options: Record<string, unknown>) => {
      serial += 1;
      const name = `Aimed ${serial}`;
      const id = await world.button(
        name,
        { moduleId: 'as-is', options: {} },
        { moduleId: 'folder-export', options: {} },
      );
      const [row] = await world.t.ctx.db.select().from(publishButtons).where(eq(publishButtons.id, id));
      const phases = structuredClone(row?.phases) as Phase[];
      for (const node of phases[0]?.phase.network.nodes ?? [])
        if (node.moduleId === 'folder-export') Object.assign(node, { moduleId, options });
      await world.t.ctx.db.update(publishButtons).set({ phases }).where(eq(publishButtons.id, id));
      world.t.config.outbound.allowLoopback = false;
      try {
        return await run(name);
      } finally {
        world.t.config.outbound.allowLoopback = true;
      }
    };
    const expectRefused = (publish: Awaited<ReturnType<typeof publishAimedAt>>, message: string) => {
      expect(publish?.status, JSON.stringify(publish?.log)).toBe('failed');
      expect(publish?.error).toBe(message);
      // Refused at once: no retry can mend it.
      expect(publish?.log.join('\n')).not.toMatch(/Attempt failed|Started again/);
    };

    const targets = () => [
      { host: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}`, message: loopback('127.0.0.1') },
      {
        host: `[::ffff:127.0.0.1]:${port}`,
        url: `http://[::ffff:127.0.0.1]:${port}`,
        message: loopback('::ffff:127.0.0.1'),
      },
      { host: `localhost:${port}`, url: `http://localhost:${port}`, message: loopback('127.0.0.1') },
      { host: '169.254.169.254', url: 'http://169.254.169.254', message: linkLocal },
    ];
    const destinations: [string, (target: ReturnType<typeof targets>[number]) => Record<string, unknown>][] =
      [
        ['webhook', (target) => ({ url: `${target.url}/latest/meta-data/` })],
        ['ftp', (target) => ({ host: target.host, username: 'desk', password: 'pa55' })],
        ['sftp', (target) => ({ host: target.host, username: 'desk', password: 'pa55' })],
        ['s3', (target) => ({ bucket: 'deliveries', endpoint: target.url, ...S3RVER_CREDENTIALS })],
      ];
    for (const [moduleId, optionsFor] of destinations)
      it(`refuses a ${moduleId} destination at 127.0.0.1, ::ffff:127.0.0.1, localhost and 169.254.169.254 without connecting`, async () => {
        for (const target of targets())
          expectRefused(await publishAimedAt(moduleId, optionsFor(target)), target.message);
        expect(connections).toBe(0);
      });

    it('refuses a webhook that redirects to a loopback address, without connecting to it', async () => {
      // The first hop is allowed (an address of this machine's network), its redirect is not.
      const lan = Object.values(os.networkInterfaces())
        .flat()
        .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
      expect(lan, 'this test needs a non-loopback IPv4 address on the machine').toBeDefined();
      let hops = 0;
      const redirecting = http.createServer((request, response) => {
        hops += 1;
        request.resume();
        response.writeHead(307, { location: `http://127.0.0.1:${port}/internal` }).end();
      });
      await new Promise<void>((resolve) => redirecting.listen(0, lan, resolve));
      try {
        const { port: first } = redirecting.address() as AddressInfo;
        const done = await publishAimedAt('webhook', { url: `http://${lan}:${first}/hook` });
        expectRefused(done, loopback('127.0.0.1'));
        expect(hops).toBe(1);
        expect(connections).toBe(0);
      } finally {
        await new Promise((resolve) => redirecting.close(resolve));
      }
    });

    it("says what failed in our words, never the peer's banner or body", async () => {
      const receiver = http.createServer((request, response) => {
        request.resume();
        response.writeHead(500).end('SECRET-BODY of the receiver');
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const ftp = net.createServer((socket) => {
        socket.on('error', () => {});
        socket.write('220 SECRET-BANNER internal-ftp.corp v1.2\r\n');
        socket.on('data', () => socket.write('530 SECRET-DENIED for desk at internal-ftp.corp\r\n'));
      });
      await new Promise<void>((resolve) => ftp.listen(0, '127.0.0.1', resolve));
      try {
        const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
        await world.button(
          'Talkative',
          { moduleId: 'as-is', options: {} },
          { moduleId: 'webhook', options: { url: `${hook}/x` } },
        );
        const answer = await world.publish(
          world.w.editor.client,
          world.clipPath,
          `/${world.w.account.name}/Publish/Talkative`,
        );
        const id = (answer.body.results.publishIds as [number])[0];
        const [attempt] = await eventually(async () => {
          const [row] = await world.t.ctx.db.select().from(publishes).where(eq(publishes.id, id));
          const lines = row?.log.filter((line) => line.startsWith('Attempt failed'));
          return lines?.length ? lines : undefined;
        }, 30_000);
        expect(attempt).toBe(`Attempt failed: ${hook} answered 500`);

        const ftpHost = `127.0.0.1:${(ftp.address() as AddressInfo).port}`;
        await world.button(
          'Banner',
          { moduleId: 'as-is', options: {} },
          { moduleId: 'ftp', options: { host: ftpHost, username: 'desk', password: 'x' } },
        );
        const refused = await run('Banner');
        expect(refused?.error).toBe(MSG_FTP_LOGIN_REFUSED);
        expect(JSON.stringify(refused?.log)).not.toContain('SECRET');
      } finally {
        await new Promise((resolve) => receiver.close(resolve));
        await new Promise((resolve) => ftp.close(resolve));
      }
    });
  });
});
