import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Edl, type FolderPermission, ROLE_LOGGER, ROLE_VIEWER } from '@media/contract';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { arrivalsFolders } from '../modules/arrivals/tables.ts';
import { ingestQueueItems } from '../modules/ingest/tables.ts';
import { addIngestedMedia } from '../modules/nodes/ingested.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { type FileStore, storeStream } from '../platform/storage.ts';
import { findRoleByName } from './factories.ts';
import { makeMediaRow, makeNodeRow, makeThumbRow } from './node-factories.ts';

const run = promisify(execFile);

/** What ffprobe tells of a demo file. */
type Probed = { duration: number; width: number; height: number; fps: number; size: number };
/** One made file and a frame of it, in a temporary folder until each source takes its own copy. */
type DemoFile = { video: string; thumbnail: string; probe: Probed };

export const DEMO_FIELD59_ARTEFACT = 'field59://abc123';
const FPS = 25;
const SECONDS = 6;
const SIZE = '320x180';

export const FFMPEG_MISSING =
  'The demo data set makes its media with ffmpeg and ffprobe, which are not installed: install the Debian package ffmpeg (apt-get install ffmpeg), or start without SEED_DEMO=1';

const probe = async (file: string): Promise<Probed> => {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  const output = JSON.parse(stdout) as {
    format: { duration: string; size: string };
    streams: { codec_type: string; width?: number; height?: number; r_frame_rate?: string }[];
  };
  const video = output.streams.find((stream) => stream.codec_type === 'video');
  const [num = 0, den = 1] = (video?.r_frame_rate ?? '0/1').split('/').map(Number);
  return {
    duration: Number(output.format.duration),
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    fps: den ? num / den : 0,
    size: Number(output.format.size),
  };
};

/**
 * Two small videos (a test card and a moving test pattern, with a tone) and a frame of each, made by one
 * ffmpeg run so seeding stays fast; every source then stores its own copy.
 */
const makeDemoFiles = async (workDir: string): Promise<[DemoFile, DemoFile]> => {
  const file = (name: string) => path.join(workDir, name);
  const video = (input: number, name: string) => [
    ...['-map', `${input}:v`, '-map', '2:a', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', file(name)],
  ];
  const frame = (input: number, name: string) => [
    ...['-map', `${input}:v`, '-ss', '1', '-frames:v', '1', '-q:v', '4', file(name)],
  ];
  try {
    await run('ffmpeg', [
      ...['-v', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc=size=${SIZE}:rate=${FPS}:duration=${SECONDS}`],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=${FPS}:duration=${SECONDS}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`],
      ...video(0, 'card.mp4'),
      ...video(1, 'pattern.mp4'),
      ...frame(0, 'card.jpg'),
      ...frame(1, 'pattern.jpg'),
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(FFMPEG_MISSING);
    throw error;
  }
  const made = async (name: string): Promise<DemoFile> => ({
    video: file(`${name}.mp4`),
    thumbnail: file(`${name}.jpg`),
    probe: await probe(file(`${name}.mp4`)).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new Error(FFMPEG_MISSING) : error;
    }),
  });
  return [await made('card'), await made('pattern')];
};

type Named = { id: number; name: string };

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

/**
 * The media tree part of the demo data set (DESIGN.md): in each account, folders (News/Today, Sport,
 * Archive/1990s, Promos), sources with real small video files, thumbnails and metadata, clips and
 * sequences (edls over the sources), a field59 artefact, a folder hidden from the Viewer role and one
 * the Logger role may only view; and the queue's ingested files in /Arrivals/{arrivals folder}. Without a
 * dataDir the tree is made without files.
 */
export const seedDemoMedia = async (db: DbOrTx, input: { accounts: Named[]; files?: FileStore }) => {
  const store = input.files;
  const dataDir = store?.dataDir;
  const workDir = dataDir
    ? await fs.promises.mkdtemp(path.join(dataDir, 'tmp', 'demo-media-')).catch(async () => {
        await fs.promises.mkdir(path.join(dataDir, 'tmp'), { recursive: true });
        return fs.promises.mkdtemp(path.join(dataDir, 'tmp', 'demo-media-'));
      })
    : undefined;
  try {
    const files = workDir ? await makeDemoFiles(workDir) : undefined;
    const viewer = await findRoleByName(db, ROLE_VIEWER);
    const logger = await findRoleByName(db, ROLE_LOGGER);
    for (const account of input.accounts)
      await seedAccountTree(db, {
        account,
        store,
        files,
        hidden: [{ roleId: viewer.id, access: 'none' }],
        viewOnly: [{ roleId: logger.id, access: 'view' }],
      });
    await landIngestedItems(db, store, files);
  } finally {
    if (workDir) await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

/**
 * The demo queue's ingested files of an account are in its tree, as the agent's report puts them there,
 * each with a real proxy (a copy of a demo video), so that every node that says it plays, plays.
 */
const landIngestedItems = async (
  db: DbOrTx,
  store: FileStore | undefined,
  files: [DemoFile, DemoFile] | undefined,
) => {
  const items = await db
    .select({
      id: ingestQueueItems.id,
      accountId: ingestQueueItems.accountId,
      clipName: ingestQueueItems.clipName,
      sourceName: ingestQueueItems.sourceName,
      duration: ingestQueueItems.duration,
      proxyWidth: ingestQueueItems.proxyWidth,
      proxyHeight: ingestQueueItems.proxyHeight,
      thumbnailPath: ingestQueueItems.thumbnailPath,
      folderName: arrivalsFolders.name,
    })
    .from(ingestQueueItems)
    .leftJoin(arrivalsFolders, eq(arrivalsFolders.id, ingestQueueItems.arrivalsFolderId))
    .where(and(eq(ingestQueueItems.status, 'ingested'), isNotNull(ingestQueueItems.accountId)))
    .orderBy(asc(ingestQueueItems.id));
  for (const [index, item] of items.entries()) {
    const file = files?.[index % 2];
    const proxyPath =
      store && file
        ? (
            await storeStream({
              ...store,
              folder: `media/accounts/${item.accountId}/ingested`,
              fileName: 'proxy.mp4',
              contentType: 'video/mp4',
              stream: fs.createReadStream(file.video),
            })
          ).relativePath
        : null;
    await addIngestedMedia(db, {
      files: store,
      accountId: item.accountId as number,
      ingestQueueItemId: item.id,
      folderName: item.folderName,
      name: item.clipName || item.sourceName,
      sourcePath: item.sourceName,
      proxyPath,
      duration: file ? file.probe.duration : item.duration,
      width: file ? file.probe.width : item.proxyWidth,
      height: file ? file.probe.height : item.proxyHeight,
      fps: file?.probe.fps ?? null,
      size: file?.probe.size ?? null,
      thumbnailPath: store ? item.thumbnailPath : null,
    });
  }
};

const seedAccountTree = async (
  db: DbOrTx,
  options: {
    account: Named;
    store?: FileStore;
    files?: [DemoFile, DemoFile];
    hidden: FolderPermission[];
    viewOnly: FolderPermission[];
  },
) => {
  const { account, store: fileStore, files } = options;
  const accountId = account.id;
  const store = async (from: string, folder: string, fileName: string) =>
    fileStore
      ? (await storeStream({ ...fileStore, folder, fileName, stream: fs.createReadStream(from) }))
          .relativePath
      : null;
  const thumbOf = async (which: 0 | 1, fileName: string) => {
    const from = files?.[which].thumbnail;
    const stored = from ? await store(from, `thumbs/${accountId}`, `${fileName}.jpg`) : null;
    return stored ? (await makeThumbRow(db, { accountId, storagePath: stored })).id : null;
  };
  const folder = (name: string, parentPath: string, hoursAgo: number, permissions: FolderPermission[] = []) =>
    makeNodeRow(db, {
      accountId,
      parentPath,
      name,
      type: 'folder',
      permissions,
      createdAt: ago(hoursAgo),
      hereAt: ago(hoursAgo),
    });
  const source = async (
    name: string,
    parentPath: string,
    which: 0 | 1,
    hoursAgo: number,
    metadata: Record<string, string> = {},
    artefacts: { url: string }[] = [],
  ) => {
    const file = files?.[which];
    const fileName = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mp4`;
    const storagePath = file
      ? await store(file.video, `media/accounts/${accountId}/sources`, fileName)
      : null;
    const row = await makeMediaRow(db, {
      accountId,
      name,
      type: 'media',
      storagePath,
      contentType: 'video/mp4',
      ...(file?.probe ?? { duration: SECONDS, width: 320, height: 180, fps: FPS, size: null }),
    });
    const node = await makeNodeRow(db, {
      accountId,
      parentPath,
      name,
      type: 'source',
      mediaId: row.id,
      thumbId: await thumbOf(which, fileName),
      metadata: {
        filename: fileName,
        ...(file ? { filesize: String(file.probe.size) } : {}),
        sourcelocator: `/srv/ingest/${account.name}/${fileName}`,
        ...metadata,
      },
      artefacts,
      createdAt: ago(hoursAgo),
      hereAt: ago(hoursAgo),
    });
    return { media: row, node, which };
  };
  /** A clip (type edl) or a sequence: an edl media row over the sources, thumbnailed by its first. */
  const edlNode = async (
    type: 'edl' | 'sequence',
    name: string,
    parentPath: string,
    pieces: { of: { media: { id: number }; which: 0 | 1 }; from: number; to: number }[],
    hoursAgo: number,
    metadata: Record<string, string> = {},
  ) => {
    const edl: Edl = {
      fps: FPS,
      events: pieces.map((piece) => ({
        mediaId: piece.of.media.id,
        inFrame: piece.from * FPS,
        outFrame: piece.to * FPS,
      })),
    };
    const row = await makeMediaRow(db, {
      accountId,
      name,
      type: 'edl',
      edl,
      fps: FPS,
      duration: pieces.reduce((total, piece) => total + piece.to - piece.from, 0),
    });
    const first = pieces[0]?.of.which ?? 0;
    return makeNodeRow(db, {
      accountId,
      parentPath,
      name,
      type,
      mediaId: row.id,
      thumbId: await thumbOf(first, name.toLowerCase().replace(/[^a-z0-9]+/g, '-')),
      metadata,
      createdAt: ago(hoursAgo),
      hereAt: ago(hoursAgo),
    });
  };

  await folder('News', '/', 72);
  await folder('Today', '/News', 48);
  await folder('Sport', '/', 70);
  await folder('Archive', '/', 96);
  await folder('1990s', '/Archive', 95);
  await folder('Promos', '/', 60, options.viewOnly);
  await folder('Legal hold', '/', 30, options.hidden);

  // spec3 §3: a field59 artefact shows as the metadata entry 'Field59 Key'.
  const weather = await source(
    'Weather opener',
    '/News/Today',
    0,
    5,
    { videoname: 'Weather opener', location: 'London studio', 'ftv-format': 'PAL_wide' },
    [{ url: DEMO_FIELD59_ARTEFACT }],
  );
  const press = await source('Press conference', '/News/Today', 1, 4, {
    videoname: 'Press conference',
    location: 'Downing Street',
  });
  const highlights = await source('Match highlights', '/Sport', 1, 20, {
    videoname: 'Match highlights',
    location: 'Stadium',
    'ftv-workflow': 'Proxy only',
  });
  const tape = await source('Tape 1987-04', '/Archive', 0, 90, {
    location: 'Archive vault',
    'ftv-versions': '2',
  });
  await source('Election night 1997', '/Archive/1990s', 1, 89, { location: 'Archive vault' });
  await source('Embargoed interview', '/Legal hold', 1, 28, { location: 'Court' });

  await edlNode('edl', 'Weather opener (clip)', '/News/Today', [{ of: weather, from: 1, to: 4 }], 3, {
    clipname: 'Weather opener (clip)',
  });
  await edlNode(
    'sequence',
    'Bulletin sequence',
    '/News/Today',
    [
      { of: weather, from: 0, to: 3 },
      { of: press, from: 2, to: 5 },
    ],
    2,
    { 'ftv-workflow': 'Proxy and archive' },
  );
  await edlNode('edl', 'Goal of the day', '/Sport', [{ of: highlights, from: 2, to: 5 }], 19, {
    clipname: 'Goal of the day',
  });
  await edlNode(
    'sequence',
    'Autumn promo',
    '/Promos',
    [
      { of: tape, from: 0, to: 2 },
      { of: highlights, from: 1, to: 4 },
    ],
    50,
  );
};
