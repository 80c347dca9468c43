import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  ERROR_CODES,
  hasRight,
  MSG_UPLOAD_NO_FILE,
  PUBLISH_ICON_MAX_BYTES,
  PUBLISH_ICON_TYPES,
  PUBLISH_MESSAGES,
  type PublishContextKind,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { sharp } from '../../platform/sharp.ts';
import { readStored, storeStream } from '../../platform/storage.ts';
import { findAncestry, visibleSiteIds } from '../access/service.ts';
import { toIcon } from './presenter.ts';
import * as repo from './repo.ts';
import {
  type Call,
  manageScope,
  ownerScope,
  publishButtonsChanged,
  publishIconsChanged,
  readScope,
} from './scope.ts';
import { checkSvg } from './svg-check.ts';

/** What a route hands over: the file part, read only after the rights are checked. */
export type IncomingIcon = { fileName: string; stream: Readable & { truncated?: boolean } };

/** Icons are shown small; a larger picture only costs bytes. */
const ICON_MAX_PIXELS = 256;
const ICON_NAME_MAX = 200;
/** A picture to shrink into an icon may have this many pixels (decoding more costs seconds and memory). */
const ICON_MAX_INPUT_PIXELS = 4096 * 4096;
/** How long an SVG may take to render; real icons take tens of milliseconds. */
export const SVG_RENDER_TIME_LIMIT_MS = 3000;
/** SVG renders at once: each holds a process (and a core) while it runs. */
const SVG_RENDERS_AT_ONCE = 2;
/** The formats sharp reports, as the media types the contract allows. */
const FORMAT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const tooLarge = () => new AppError(ERROR_CODES.tooLarge, PUBLISH_MESSAGES.iconTooLarge);
const wrongType = () => new AppError(ERROR_CODES.unsupportedMediaType, PUBLISH_MESSAGES.iconType);
/** The answer to an SVG this server will not render: a 400 that says why (the web shows it after its own prefix). */
export const svgRefused = (reason: string) =>
  badRequest(`This SVG icon cannot be used: ${reason}. Simplify it, or upload a PNG instead`);
const tooManyPixels = () =>
  badRequest(
    `The icon has too many pixels (at most ${ICON_MAX_INPUT_PIXELS.toLocaleString('en')}, 4096 × 4096)`,
  );

const readAll = async (file: IncomingIcon) => {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file.stream) {
      size += (chunk as Buffer).length;
      if (size > PUBLISH_ICON_MAX_BYTES) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    file.stream.resume();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (file.stream.truncated) throw tooLarge();
  return Buffer.concat(chunks);
};

/** Markup rather than a binary image: after an optional byte order mark and white space, a '<'. */
const looksLikeMarkup = (content: Buffer) => /^(\uFEFF)?\s*</.test(content.subarray(0, 64).toString('utf8'));

const RASTERISER = fileURLToPath(new URL('./rasterise-svg.mjs', import.meta.url));
let rendersRunning = 0;
const waitingRenders: (() => void)[] = [];

/** Runs `work` when fewer than SVG_RENDERS_AT_ONCE renders are running. */
const inRenderSlot = async <T>(work: () => Promise<T>) => {
  if (rendersRunning >= SVG_RENDERS_AT_ONCE)
    await new Promise<void>((resolve) => waitingRenders.push(resolve));
  rendersRunning += 1;
  try {
    return await work();
  } finally {
    rendersRunning -= 1;
    waitingRenders.shift()?.();
  }
};

type RendererAnswer = { ready: true } | { png: Uint8Array } | { error: 'type' | 'render'; message?: string };

/**
 * An SVG as a PNG of at most 256 px, rendered in a child process that is killed once the time limit is
 * up: the server's thread pool and event loop stay free whatever the file holds.
 */
export const rasteriseSvg = (svg: Buffer, timeLimitMs = SVG_RENDER_TIME_LIMIT_MS) =>
  inRenderSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const child = fork(RASTERISER, [], {
          execArgv: [],
          serialization: 'advanced',
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        });
        let timer: NodeJS.Timeout | undefined;
        let settled = false;
        const settle = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          child.kill('SIGKILL');
          outcome();
        };
        child.on('message', (message: RendererAnswer) => {
          if ('ready' in message) {
            // The clock starts with the render, not with the process (slow to start on a busy machine).
            timer = setTimeout(
              () => settle(() => reject(svgRefused(`rendering it took longer than ${timeLimitMs / 1000} s`))),
              timeLimitMs,
            );
            child.send({ svg, size: ICON_MAX_PIXELS, maxPixels: ICON_MAX_PIXELS * ICON_MAX_PIXELS * 16 });
          } else if ('png' in message) {
            settle(() => resolve(Buffer.from(message.png)));
          } else if (message.message?.includes('pixel limit')) {
            settle(() => reject(svgRefused('it is too large to render')));
          } else {
            settle(() => reject(wrongType()));
          }
        });
        child.on('error', (error) => settle(() => reject(error)));
        child.on('exit', (code, signal) =>
          settle(() => reject(new Error(`the SVG renderer stopped (${signal ?? code})`))),
        );
      }),
  );

/**
 * The picture as a PNG of at most 256 px: the type is told by the content, never by the name, and an
 * SVG is rasterised here so that no uploaded markup (or script) is ever served. An SVG is read first and
 * refused when it would take long to draw; pictures with more than 4096 × 4096 pixels are refused unread.
 */
const normalise = async (content: Buffer) => {
  if (looksLikeMarkup(content)) {
    const check = checkSvg(content.toString('utf8'));
    if (!check.ok) throw check.malformed ? wrongType() : svgRefused(check.reason);
    return rasteriseSvg(content);
  }
  const metadata = await (await sharp(content)).metadata().catch((error: Error) => {
    // sharp refuses to read past its own limit (268 million pixels) already.
    if (error.message.includes('pixel limit')) throw tooManyPixels();
    return undefined;
  });
  const type = metadata?.format ? FORMAT_TYPES[metadata.format] : undefined;
  if (!type || !(PUBLISH_ICON_TYPES as readonly string[]).includes(type)) throw wrongType();
  // Compressed (SVGZ) or otherwise disguised markup would skip the check above.
  if (type === 'image/svg+xml') throw svgRefused('it must be a plain (not compressed) SVG file');
  if ((metadata?.width ?? 0) * (metadata?.height ?? 0) > ICON_MAX_INPUT_PIXELS) throw tooManyPixels();
  return (await sharp(content, { limitInputPixels: ICON_MAX_INPUT_PIXELS }))
    .resize(ICON_MAX_PIXELS, ICON_MAX_PIXELS, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
    .catch(() => {
      throw wrongType();
    });
};

const iconName = (fileName: string) =>
  path
    .basename(fileName)
    .replace(/\.[^.]*$/, '')
    .trim()
    .slice(0, ICON_NAME_MAX) || 'icon';

/** The icons of a context; an account also gets its site's, marked 'other'. */
export const listIcons = async ({ ctx, actor, kind, id }: Call<{ kind: PublishContextKind; id: number }>) => {
  const scope = await readScope(ctx.db, actor, kind, id);
  const own = (await repo.findIcons(ctx.db, [scope.owner])).map((row) => toIcon(row, 'account'));
  if (kind === 'sites') return own;
  const site = await repo.findIcons(ctx.db, [{ siteId: scope.siteId }]);
  return [...own, ...site.map((row) => toIcon(row, 'other'))];
};

export const uploadIcon = async ({
  ctx,
  actor,
  kind,
  id,
  readFile,
}: Call<{ kind: PublishContextKind; id: number; readFile: () => Promise<IncomingIcon | undefined> }>) => {
  await manageScope(ctx.db, actor, kind, id);
  const file = await readFile();
  if (!file) throw badRequest(MSG_UPLOAD_NO_FILE);
  const png = await normalise(await readAll(file));
  const stored = await storeStream({
    storage: ctx.storage,
    dataDir: ctx.config.dataDir,
    contentType: 'image/png',
    folder: `publishing/${kind}/${id}/icons`,
    fileName: 'icon.png',
    stream: Readable.from(png),
  });
  let iconId: number;
  try {
    iconId = await repo.insertIcon(ctx.db, {
      accountId: kind === 'accounts' ? id : null,
      siteId: kind === 'sites' ? id : null,
      name: iconName(file.fileName),
      storagePath: stored.relativePath,
    });
  } catch (error) {
    await stored.remove();
    throw error;
  }
  await publishIconsChanged(ctx, kind, id, [iconId]);
  return toIcon((await repo.findIcon(ctx.db, iconId)) as repo.IconRow, 'account');
};

/** Readers of an icon: an account's users; for a site's icon, anyone who sees the site. */
const mayReadIcon = async (db: DbOrTx, actor: Actor, icon: repo.IconRow) => {
  const rights = await actor.rights();
  if (icon.accountId !== null) {
    const ancestry = await findAncestry(db, { kind: 'account', id: icon.accountId });
    return ancestry !== undefined && hasRight(rights, 'account.use', ancestry);
  }
  const visible = await visibleSiteIds(db, rights);
  return visible === 'all' || visible.includes(icon.siteId as number);
};

/** The icon's PNG with an ETag; `image` is null when the caller's copy is current (304). */
export const iconImage = async ({
  ctx,
  actor,
  id,
  ifNoneMatch,
}: Call<{ id: number; ifNoneMatch?: string }>) => {
  const icon = await repo.findIcon(ctx.db, id);
  if (!icon || !(await mayReadIcon(ctx.db, actor, icon))) throw notFound('Icon');
  const etag = `"${createHash('sha256').update(`${icon.id}|${icon.storagePath}`).digest('base64url').slice(0, 27)}"`;
  if (ifNoneMatch === etag) return { etag, contentType: icon.contentType, image: null };
  const image = await readStored(ctx.storage, icon.storagePath);
  if (!image) throw notFound('Icon');
  return { etag, contentType: icon.contentType, image };
};

/** Trashes the icon; the buttons that showed it lose it in the same transaction. */
export const trashIcon = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const icon = await repo.findIcon(ctx.db, id);
  if (!icon) throw notFound('Icon');
  const owner = ownerScope(icon);
  await manageScope(ctx.db, actor, owner.kind, owner.id).catch((error: unknown) => {
    throw error instanceof AppError && error.status === 404 ? notFound('Icon') : error;
  });
  const buttons = await ctx.db.transaction((tx) => repo.trashIcon(tx, id));
  await publishIconsChanged(ctx, owner.kind, owner.id, [id]);
  for (const button of buttons) {
    const scope = ownerScope(button);
    await publishButtonsChanged(ctx, scope.kind, scope.id, [button.id]);
  }
  return { ok: true as const };
};
