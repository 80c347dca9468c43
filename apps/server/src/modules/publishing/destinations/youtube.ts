import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PUBLISH_HELP_MESSAGES } from '@media/contract';
import { accessToken, YoutubeGrantRevoked } from '../youtube.ts';
import { type Destination, PublishRefused } from './common.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
};
/** Times an interrupted upload carries on from where YouTube says it stopped, before the attempt fails. */
const RESUMES = 5;

type Session = { url: string; size: number; type: string; signal: AbortSignal };

const videoIdOf = async (answer: Response) => {
  const body = (await answer.json().catch(() => undefined)) as { id?: unknown } | undefined;
  if (typeof body?.id !== 'string') throw new Error('YouTube did not say which video it made');
  return body.id;
};

/** How much of the file YouTube holds (a 308 with Range), or the video's id when it has all of it. */
const uploadStatus = async (session: Session): Promise<{ offset: number } | { id: string }> => {
  const answer = await fetch(session.url, {
    method: 'PUT',
    headers: { 'content-range': `bytes */${session.size}` },
    signal: session.signal,
  });
  if (answer.status === 200 || answer.status === 201) return { id: await videoIdOf(answer) };
  if (answer.status !== 308) throw new Error(`YouTube answered ${answer.status} for the upload's status`);
  const range = /bytes=0-(\d+)/.exec(answer.headers.get('range') ?? '');
  return { offset: range ? Number(range[1]) + 1 : 0 };
};

/** Sends the file from offset; answers the video's id, or undefined when YouTube stopped short. */
const sendFrom = async (file: string, session: Session, offset: number) => {
  const answer = await fetch(session.url, {
    method: 'PUT',
    headers: {
      'content-type': session.type,
      'content-length': String(session.size - offset),
      'content-range': `bytes ${offset}-${session.size - 1}/${session.size}`,
    },
    body: Readable.toWeb(fs.createReadStream(file, { start: offset })) as ReadableStream,
    duplex: 'half',
    signal: session.signal,
  } as RequestInit);
  if (answer.status === 200 || answer.status === 201) return videoIdOf(answer);
  if (answer.status === 308 || answer.status >= 500) return undefined;
  throw new PublishRefused(`YouTube refused the video (${answer.status}): ${await answer.text()}`);
};

/**
 * YouTube: a resumable upload to the account's connected channel with the title, description and privacy
 * of the publish; an upload cut off carries on from what YouTube holds. No Google client on the cloud, no
 * channel connected or a revoked one fail at once with what to do (the published item's help connects).
 */
export const uploadToYoutube: Destination = async (ctx, destination, file, delivery) => {
  const google = ctx.config.google;
  if (!google) throw new PublishRefused(PUBLISH_HELP_MESSAGES.youtubeNotConfigured);
  const token = await accessToken(ctx, google, delivery.accountId).catch((error: unknown) => {
    throw error instanceof YoutubeGrantRevoked ? new PublishRefused(error.message) : error;
  });
  if (!token) throw new PublishRefused(PUBLISH_HELP_MESSAGES.youtubeNotConnected);
  const size = (await fs.promises.stat(file)).size;
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'video/*';
  const start = await fetch(
    `${google.youtubeApiUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': type,
      },
      body: JSON.stringify({
        snippet: {
          title: String(destination.options.title ?? delivery.nodeName).slice(0, 100),
          description: String(destination.options.description ?? ''),
        },
        status: { privacyStatus: String(destination.options.privacy ?? 'unlisted') },
      }),
      signal: delivery.signal,
    },
  );
  const url = start.headers.get('location');
  if (start.status === 400 || start.status === 403)
    throw new PublishRefused(`YouTube refused the upload (${start.status}): ${await start.text()}`);
  if (!start.ok || !url) throw new Error(`YouTube answered ${start.status} when the upload began`);
  const session = { url, size, type, signal: delivery.signal };
  let offset = 0;
  for (let resume = 0; ; resume++) {
    const id = await sendFrom(file, session, offset).catch((error: unknown) => {
      if (error instanceof PublishRefused || delivery.signal.aborted || resume >= RESUMES) throw error;
      return undefined;
    });
    if (id) return `https://www.youtube.com/watch?v=${id}`;
    if (resume >= RESUMES) throw new Error('The upload to YouTube kept stopping short');
    const status = await uploadStatus(session);
    if ('id' in status) return `https://www.youtube.com/watch?v=${status.id}`;
    offset = status.offset;
  }
};
