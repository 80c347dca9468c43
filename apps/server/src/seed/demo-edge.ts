import { Readable } from 'node:stream';
import { ARRIVALS_FOLDER_TYPES, DEFAULT_EDGE_ADVANCED_OPTIONS, type IngestStatus } from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { arrivalsFolders } from '../modules/arrivals/tables.ts';
import { edgeServers, endpoints, services } from '../modules/edge/tables.ts';
import { ingestQueueItems, unprocessedFiles } from '../modules/ingest/tables.ts';
import { users } from '../modules/users/tables.ts';
import { randomToken, sha256 } from '../platform/crypto.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { sharp } from '../platform/sharp.ts';
import { type FileStore, storeStream } from '../platform/storage.ts';

/*
 * Factories of the edge and ingest tables (shared by the integration tests and the demo seed, so demo
 * data is always valid data), and the demo data of the arrivals and ingest queue pages.
 */

let sequence = 0;
const next = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

export const makeEdgeServerRow = async (
  db: DbOrTx,
  overrides: Partial<typeof edgeServers.$inferInsert> & { userId: number },
) => {
  const [row] = await db
    .insert(edgeServers)
    .values({
      name: `Edge ${next()}`,
      advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
      agentTokenHash: sha256(randomToken(32)),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('edge server not created');
  return row;
};

/** A service; a new one is its own service group unless one is given. */
export const makeServiceRow = async (
  db: DbOrTx,
  overrides: Partial<typeof services.$inferInsert> & { edgeServerId: number },
) => {
  const [row] = await db
    .insert(services)
    .values({ name: `Service ${next()}`, typeId: 'FileIngestService', serviceGroupId: 0, ...overrides })
    .returning();
  if (!row) throw new Error('service not created');
  if (overrides.serviceGroupId !== undefined) return row;
  await db.update(services).set({ serviceGroupId: row.id }).where(eq(services.id, row.id));
  return { ...row, serviceGroupId: row.id };
};

export const makeEndpointRow = async (
  db: DbOrTx,
  overrides: Partial<typeof endpoints.$inferInsert> & { serviceId: number },
) => {
  const [row] = await db
    .insert(endpoints)
    .values({ name: `Endpoint ${next()}`, typeId: 'LocalFolderEndpoint', ...overrides })
    .returning();
  if (!row) throw new Error('endpoint not created');
  return row;
};

/** Where the local edge's folder feeds with the demo data: a new user's dropped file shows up there at once. */
export const DEMO_LOCAL_EDGE_TARGET = { account: 'evening-news', arrivalsFolder: 'Incoming rushes' } as const;

export const makeArrivalsFolderRow = async (
  db: DbOrTx,
  overrides: Partial<typeof arrivalsFolders.$inferInsert> & { accountId: number },
) => {
  const [row] = await db
    .insert(arrivalsFolders)
    .values({
      name: `Arrivals ${next()}`,
      typeId: (ARRIVALS_FOLDER_TYPES[0] as { id: string }).id,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('arrivals folder not created');
  return row;
};

/** A queue item; it goes last in its edge server's order unless a rank is given. */
export const makeQueueItemRow = async (
  db: DbOrTx,
  overrides: Partial<typeof ingestQueueItems.$inferInsert> & { edgeServerId: number },
) => {
  const queueId = overrides.queueId ?? `q-${next()}`;
  const rank =
    overrides.rank ??
    sql<number>`(select coalesce(max(${ingestQueueItems.rank}), 0) + 1 from ${ingestQueueItems} where ${ingestQueueItems.edgeServerId} = ${overrides.edgeServerId})`;
  const [row] = await db
    .insert(ingestQueueItems)
    .values({ sourceName: `${queueId}.mov`, clipName: queueId, ...overrides, queueId, rank })
    .returning();
  if (!row) throw new Error('queue item not created');
  return row;
};

export const makeUnprocessedFileRow = async (
  db: DbOrTx,
  overrides: Partial<typeof unprocessedFiles.$inferInsert> & { endpointId: number },
) => {
  const [row] = await db
    .insert(unprocessedFiles)
    .values({ path: `incoming/${next()}.mxf`, ...overrides })
    .returning();
  if (!row) throw new Error('unprocessed file not created');
  return row;
};

/** A small JPEG thumbnail, stored under DATA_DIR/thumbnails like the agent's uploads; answers its relative path. */
export const storeDemoThumbnail = async (files: FileStore, fileName: string, hue: number) => {
  const width = 320;
  const height = 180;
  const colour = (lightness: number) => `hsl(${hue}, 60%, ${lightness}%)`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${colour(25)}"/>
    <circle cx="${width * 0.3}" cy="${height * 0.55}" r="48" fill="${colour(60)}"/>
    <rect x="${width * 0.55}" y="${height * 0.25}" width="100" height="90" rx="8" fill="${colour(75)}"/>
  </svg>`;
  const jpeg = await (await sharp(Buffer.from(svg))).jpeg({ quality: 80 }).toBuffer();
  const stored = await storeStream({
    ...files,
    folder: 'thumbnails',
    contentType: 'image/jpeg',
    fileName,
    stream: Readable.from(jpeg),
  });
  return stored.relativePath;
};

type Named = { id: number; name: string };
type DemoEdgeInput = {
  accounts: Named[];
  sites: Named[];
  /** Usernames of the owner of the site's edge server (a site manager) and of the personal one. */
  siteEdgeOwner: string;
  personalEdgeOwner: string;
  /** Where thumbnails go; without it the demo items have none. */
  files?: FileStore;
};

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);

/**
 * The edge and ingest part of the demo data set (DESIGN.md): two edge servers (one of a site, connected;
 * one personal, not connected), services of each kind with source and stream endpoints assigned to the
 * accounts' arrivals folders, queue items in every status (files and streams, a schedule; proxies,
 * thumbnails and logs where an item has them) and a few unprocessed files.
 */
export const seedDemoEdge = async (db: DbOrTx, input: DemoEdgeInput) => {
  const [news, sports, docs, archive] = input.accounts as [Named, Named, Named, Named];
  const [london, berlin] = input.sites as [Named, Named];
  const owner = async (username: string) => {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (!user) throw new Error(`demo user ${username} missing`);
    return user;
  };
  const siteEdgeOwner = await owner(input.siteEdgeOwner);
  const personalEdgeOwner = await owner(input.personalEdgeOwner);
  const folders = new Map<number, { id: number }[]>();
  for (const account of input.accounts) {
    const made = [];
    for (const [index, name] of ['Incoming rushes', 'Live recordings'].entries())
      made.push(
        await makeArrivalsFolderRow(db, {
          accountId: account.id,
          name,
          typeId: (ARRIVALS_FOLDER_TYPES[index] as { id: string }).id,
          priority: index,
          options: { targetFolder: 'Arrivals' },
        }),
      );
    folders.set(account.id, made);
  }
  const folderOf = (account: Named, index: number) => (folders.get(account.id) ?? [])[index]?.id ?? null;

  const studio = await makeEdgeServerRow(db, {
    name: `${london.name} studio edge`,
    userId: siteEdgeOwner.id,
    siteId: london.id,
    lastSeenAt: new Date(),
    endpointVersions: { LocalFolderEndpoint: '3.2.1', SrtEndpoint: '3.2.0' },
  });
  const field = await makeEdgeServerRow(db, {
    name: 'Field kit',
    userId: personalEdgeOwner.id,
    lastSeenAt: ago(2 * DAY),
    endpointVersions: { RtmpPushEndpoint: '3.1.4' },
  });
  const fileIngest = await makeServiceRow(db, {
    edgeServerId: studio.id,
    name: 'File ingest',
    typeId: DEMO_SERVICE_TYPES.files,
    options: { scanIntervalSeconds: { value: '10' } },
  });
  const streamIngest = await makeServiceRow(db, {
    edgeServerId: studio.id,
    name: 'Stream recorder',
    typeId: DEMO_SERVICE_TYPES.streams,
    options: {},
  });
  const fieldRecorder = await makeServiceRow(db, {
    edgeServerId: field.id,
    name: 'Field recorder',
    typeId: DEMO_SERVICE_TYPES.streams,
    serviceGroupId: streamIngest.serviceGroupId,
    options: {},
  });
  const endpoint = (
    service: { id: number },
    account: Named,
    folderIndex: number,
    values: Omit<Partial<typeof endpoints.$inferInsert>, 'serviceId'> & { name: string; typeId: string },
  ) =>
    makeEndpointRow(db, {
      serviceId: service.id,
      accountId: account.id,
      siteId: account === news || account === sports ? london.id : berlin.id,
      arrivalsFolderId: folderOf(account, folderIndex),
      online: true,
      ...values,
    });
  const newsDrop = await endpoint(fileIngest, news, 0, {
    name: 'Newsroom drop folder',
    typeId: 'LocalFolderEndpoint',
    options: { path: '/srv/ingest/news' },
  });
  const sportsShare = await endpoint(fileIngest, sports, 0, {
    name: 'Sports SMB share',
    typeId: 'SmbEndpoint',
    options: { share: '//nas/sports', path: 'incoming' },
  });
  const docsBucket = await endpoint(fileIngest, docs, 0, {
    name: 'Documentaries bucket',
    typeId: 'S3Endpoint',
    status: 'warning',
    options: { bucket: 'docs-rushes' },
  });
  const archiveIsis = await endpoint(fileIngest, archive, 0, {
    name: 'Archive ISIS',
    typeId: 'AvidISISEndpoint',
    status: 'disabled',
    online: false,
    options: { host: 'isis-sd.newsroom.example', workspace: 'Archive', mountPath: '/mnt/isis/archive' },
  });
  const newsSrt = await endpoint(streamIngest, news, 1, {
    name: 'Studio SRT feed',
    typeId: 'SrtEndpoint',
    options: { autoCapture: 'scheduled' },
  });
  const sportsHls = await endpoint(streamIngest, sports, 1, {
    name: 'Stadium HLS',
    typeId: 'HlsEndpoint',
    recording: true,
    options: { url: 'https://stadium.example/live/main.m3u8', autoCapture: 'always' },
  });
  const fieldRtmp = await endpoint(fieldRecorder, news, 1, {
    name: 'Reporter RTMP push',
    typeId: 'RtmpPushEndpoint',
    status: 'error',
    online: false,
    options: { autoCapture: 'ondemand', streamKey: 'reporter-7' },
  });
  await makeEndpointRow(db, {
    serviceId: streamIngest.id,
    name: 'Test pattern',
    typeId: 'TeststreamEndpoint',
    online: true,
  });

  const thumbnail = async (name: string, hue: number) =>
    input.files ? await storeDemoThumbnail(input.files, `${name}.jpg`, hue) : null;
  const item = async (
    source: { id: number; accountId: number | null; arrivalsFolderId: number | null },
    edge: { id: number },
    status: IngestStatus,
    name: string,
    values: Partial<typeof ingestQueueItems.$inferInsert> = {},
  ) => {
    const done = ['ingested', 'failed', 'duplicated'].includes(status);
    const started = done || status === 'ingesting';
    return makeQueueItemRow(db, {
      edgeServerId: edge.id,
      endpointId: source.id,
      accountId: source.accountId,
      arrivalsFolderId: source.arrivalsFolderId,
      queueId: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      status,
      sourceName: `${name}.mov`,
      clipName: name,
      reelName: `R${(name.length % 9) + 1}`,
      diskLabel: 'CARD-A',
      whenQueued: ago(3 * 3600_000),
      whenStarted: started ? ago(2 * 3600_000) : null,
      whenFinished: done ? ago(3600_000) : null,
      duration: 95 + name.length,
      log: started
        ? `${ago(2 * 3600_000).toISOString()} Started ${name}.mov\n${ago(90 * 60_000).toISOString()} Transcoding proxy\n`
        : '',
      ...values,
    });
  };
  let hue = 0;
  const withProxy = async (name: string) => {
    hue += 40;
    return { proxyWidth: 640, proxyHeight: 360, thumbnailPath: await thumbnail(name, hue) };
  };

  await item(newsDrop, studio, 'queued', 'Budget speech');
  await item(newsDrop, studio, 'queued', 'Council vox pops');
  await item(newsDrop, studio, 'actionRequired', 'Flood aerials', {
    error: 'No ingest format matches 3840x2160',
  });
  await item(newsDrop, studio, 'ingesting', 'Press conference', await withProxy('Press conference'));
  await item(newsDrop, studio, 'ingested', 'Weather opener', {
    ...(await withProxy('Weather opener')),
    log: `${ago(2 * 3600_000).toISOString()} Started Weather opener.mov\n${ago(3600_000).toISOString()} Ingested into Arrivals/Incoming rushes\n`,
  });
  await item(newsDrop, studio, 'failed', 'Courtroom sketch', {
    error: 'ffmpeg: Invalid data found when processing input',
    log: `${ago(2 * 3600_000).toISOString()} Started Courtroom sketch.mov\n${ago(3600_000).toISOString()} ffmpeg: Invalid data found when processing input\n`,
  });
  await item(newsDrop, studio, 'duplicated', 'Budget speech (copy)', {
    error: `The same file was ingested on ${ago(DAY).toISOString().slice(0, 10)}`,
  });
  await item(sportsShare, studio, 'missing', 'Match highlights', { error: 'The file is no longer there' });
  await item(sportsShare, studio, 'deleted', 'Warm-up', {});
  await item(sportsShare, studio, 'unknown', 'Locker room', {});
  await item(
    sportsShare,
    studio,
    'ingested',
    'Post-match interview',
    await withProxy('Post-match interview'),
  );
  await item(docsBucket, studio, 'queued', 'Glacier timelapse', { forced: true });
  await item(docsBucket, studio, 'ingesting', 'Interview day 2');
  await item(archiveIsis, studio, 'failed', 'Tape 1987-04', {
    error: 'Source offline',
    log: `${ago(DAY).toISOString()} Source offline\n`,
  });
  // Streams: one waiting to start, one recording, one recorded, one failed, and a schedule.
  await item(newsSrt, studio, 'actionRequired', 'Studio SRT feed', { isStream: true, duration: null });
  await item(sportsHls, studio, 'ingesting', 'Stadium live', {
    isStream: true,
    ...(await withProxy('Stadium live')),
  });
  await item(sportsHls, studio, 'ingested', 'Stadium first half', { isStream: true });
  await item(fieldRtmp, field, 'failed', 'Reporter live shot', {
    isStream: true,
    error: 'Connection reset by peer',
    log: `${ago(DAY).toISOString()} Connection reset by peer\n`,
  });
  const start = new Date(Math.ceil((Date.now() + DAY) / 3600_000) * 3600_000);
  await item(newsSrt, studio, 'queued', 'Evening bulletin', {
    isStream: true,
    isSchedule: true,
    queueId: 'schedule-evening-bulletin',
    scheduledStartTime: start,
    priority: -Math.floor(start.getTime() / 1000),
    duration: 1800,
    whenStarted: null,
    log: '',
  });

  for (const path of ['incoming/Budget speech part 2.mxf', 'incoming/clip0042.mxf'])
    await makeUnprocessedFileRow(db, { endpointId: newsDrop.id, path });
  await makeUnprocessedFileRow(db, {
    endpointId: sportsShare.id,
    path: 'matchday/cam3/A003C012.mov',
    forced: true,
  });
  return { edgeServers: [studio, field], folders };
};

/** The service types of the demo's services (the edge catalogue's ids). */
export const DEMO_SERVICE_TYPES = { files: 'FileIngestService', streams: 'StreamIngestService' } as const;
