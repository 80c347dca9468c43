import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobServiceClient,
  generateAccountSASQueryParameters,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import type { EdgeAgent } from '@media/edge-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, videoOf } from './agent-ingest-world.ts';
import { eventually, testDriver } from './harness.ts';
import { S3RVER_CREDENTIALS, startS3Server } from './s3-server.ts';
import { freePort } from './spawned-server.ts';

/** Azurite's well-known development account. */
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Azurite's blob service on 127.0.0.1, in memory, as its own process. */
const startAzurite = async () => {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.resolve(import.meta.dirname, '../../../node_modules/azurite/dist/src/blob/main.js'),
      ...['--blobHost', '127.0.0.1', '--blobPort', String(port)],
      ...['--inMemoryPersistence', '--silent', '--skipApiVersionCheck', '--disableTelemetry'],
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  await eventually(
    () =>
      fetch(`${url}?comp=list`).then(
        () => true,
        () => false,
      ),
    30_000,
  );
  return {
    url,
    close: async () => {
      child.kill();
    },
  };
};

/**
 * Every file source against a real server of its protocol (issue 13): the agent reads an S3-compatible
 * bucket (s3rver) and an Azure container (Azurite), ingests a video from each into a playable node, and a
 * broken endpoint of each kind shows `error` with its reason in the account's status.
 */
describe(`edge agent reading buckets and containers (${testDriver()})`, () => {
  let x: IngestWorld;
  let agent: EdgeAgent;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let azurite: Awaited<ReturnType<typeof startAzurite>>;
  let clip: string;
  let sas: string;
  let folderId: number;

  beforeAll(async () => {
    [s3, azurite] = await Promise.all([startS3Server(['rushes']), startAzurite()]);
    x = await makeIngestWorld('buckets');
    folderId = (
      await makeArrivalsFolderRow(x.t.ctx.db, {
        accountId: x.w.account.id,
        name: 'Remote',
        typeId: 'proxyOnly',
        options: { ingestFormat: 'PAL_wide' },
      })
    ).id;
    clip = path.join(x.work, 'clip.mp4');
    makeClip(clip, { seconds: 1, size: '320x240' });
    const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
    sas = generateAccountSASQueryParameters(
      {
        permissions: AccountSASPermissions.parse('rl'),
        services: AccountSASServices.parse('b').toString(),
        resourceTypes: AccountSASResourceTypes.parse('sco').toString(),
        expiresOn: new Date(Date.now() + 3600_000),
      },
      credential,
    ).toString();
    const container = new BlobServiceClient(azurite.url, credential).getContainerClient('media');
    await container.create();
    // Other content than the bucket's (the same content in one folder would be `duplicated`).
    const other = path.join(x.work, 'other.mp4');
    makeClip(other, { seconds: 2, size: '320x240' });
    await container.getBlockBlobClient('incoming/from-azure.mp4').uploadFile(other);
    agent = x.agent();
  });
  afterAll(async () => {
    await x.close();
    await Promise.all([s3.close(), azurite.close()]);
  });

  it('ingests a video from an S3-compatible bucket under its prefix', async () => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'elsewhere' })).catch(() => undefined);
    for (const key of ['in/from-s3.mp4', 'other/not-this.mp4'])
      await client.send(new PutObjectCommand({ Bucket: 'rushes', Key: key, Body: fs.readFileSync(clip) }));
    client.destroy();
    const endpoint = await x.endpoint('s3', {
      name: 'Bucket',
      typeId: 'S3Endpoint',
      arrivalsFolderId: folderId,
      options: { bucket: 'rushes', prefix: 'in', endpoint: s3.endpoint, ...S3RVER_CREDENTIALS },
    });
    await x.round(agent);
    const item = await x.itemOf(endpoint.id, 'from-s3.mp4');
    expect(item.status, item.log).toBe('ingested');
    const served = await x.servedProxy(item.id);
    expect(served.node.path).toBe('/Arrivals/Remote/from-s3');
    expect(videoOf(ffprobe(served.file))).toMatchObject({ codec_name: 'h264', height: 240 });
    expect(await x.endpointStatus('Bucket')).toMatchObject({
      status: 'ok',
      message: 'Reading s3://rushes/in/',
    });
  });

  it('ingests a video from an Azure blob container with a SAS token', async () => {
    const endpoint = await x.endpoint('azure', {
      name: 'Container',
      typeId: 'AzureBlobEndpoint',
      arrivalsFolderId: folderId,
      options: {
        accountName: AZURITE_ACCOUNT,
        container: 'media',
        prefix: 'incoming/',
        sasToken: sas,
        blobEndpoint: azurite.url,
      },
    });
    await x.round(agent);
    const item = await x.itemOf(endpoint.id, 'from-azure.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect(videoOf(ffprobe((await x.servedProxy(item.id)).file))).toMatchObject({ codec_name: 'h264' });
    expect(await x.endpointStatus('Container')).toMatchObject({ status: 'ok' });
  });

  it('shows a broken endpoint of each kind as an error with its reason, and never repeats a secret', async () => {
    const broken = {
      'No bucket': {
        typeId: 'S3Endpoint',
        options: { bucket: 'missing', endpoint: s3.endpoint, ...S3RVER_CREDENTIALS },
      },
      'Wrong key': {
        typeId: 'S3Endpoint',
        options: {
          bucket: 'rushes',
          endpoint: s3.endpoint,
          accessKeyId: 'NOPE',
          secretAccessKey: 'hush-hush',
        },
      },
      'No container': {
        typeId: 'AzureBlobEndpoint',
        options: {
          accountName: AZURITE_ACCOUNT,
          container: 'gone',
          sasToken: sas,
          blobEndpoint: azurite.url,
        },
      },
      'Bad token': {
        typeId: 'AzureBlobEndpoint',
        options: {
          accountName: AZURITE_ACCOUNT,
          container: 'media',
          sasToken: 'sv=2020-08-04&sig=forged',
          blobEndpoint: azurite.url,
        },
      },
      'Unmounted workspace': {
        typeId: 'AvidISISEndpoint',
        options: { host: 'isis', workspace: 'News', mountPath: path.join(x.work, 'not-mounted') },
      },
    } as const;
    for (const [name, values] of Object.entries(broken))
      await x.endpoint(name.replace(/\W/g, ''), { name, arrivalsFolderId: folderId, ...values });
    await x.round(agent);
    const reported = await eventually(async () => {
      const all = await Promise.all(Object.keys(broken).map((name) => x.endpointStatus(name)));
      return all.every((item) => item?.status === 'error') ? all : undefined;
    });
    expect(reported.map((item) => [item?.name, item?.message])).toEqual([
      ['No bucket', 'Bucket missing does not exist'],
      ['Wrong key', 'Access to s3://rushes/ is refused: check the access key and secret'],
      ['No container', `Container gone does not exist in ${AZURITE_ACCOUNT}`],
      [
        'Bad token',
        `Access to ${AZURITE_ACCOUNT}/media/ is refused: check the SAS token (it must allow list and read)`,
      ],
      ['Unmounted workspace', `Folder ${path.join(x.work, 'not-mounted')} does not exist`],
    ]);
    expect(JSON.stringify(reported)).not.toMatch(/hush-hush|forged/);
  });
});
