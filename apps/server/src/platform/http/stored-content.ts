import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERROR_CODES } from '@media/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import type { MediaStorage } from '../storage/index.ts';

export type StoredContent =
  | { status: 200 | 206; headers: Record<string, string>; body: Readable }
  | { status: 304 | 416; headers: Record<string, string>; body?: undefined };

/**
 * The answer for a stored object with byte ranges (RFC 9110 §14), the same from every storage driver: 206
 * with one range, 416 for an unsatisfiable one, the whole object otherwise (several ranges too, as
 * @fastify/send does); 304 for a current copy. Objects never change under their key, so the key and size
 * make the ETag. `range` is the request's Range header as RFC 9110 reads it (see usableRange). Undefined
 * when the object is missing.
 */
export const storedContent = async (
  storage: MediaStorage,
  key: string,
  request: { range?: string; ifRange?: string; ifNoneMatch?: string; contentType?: string | null },
): Promise<StoredContent | undefined> => {
  const stat = await storage.stat(key).catch(() => undefined);
  if (!stat) return undefined;
  const { size } = stat;
  const etag = `"${createHash('sha256').update(`${key}|${size}`).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = { 'accept-ranges': 'bytes', etag };
  if (request.ifNoneMatch === etag) return { status: 304, headers };
  // If-Range names the copy the client holds part of; another copy gets the whole object.
  const range = request.ifRange === undefined || request.ifRange === etag ? request.range : undefined;
  const ranges = range ? parseRange(size, range, { combine: true }) : -2;
  if (ranges === -1) return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } };
  if (request.contentType) headers['content-type'] = request.contentType;
  const only = Array.isArray(ranges) && ranges.length === 1 ? ranges[0] : undefined;
  if (only && size > 0) {
    headers['content-range'] = `bytes ${only.start}-${only.end}/${size}`;
    headers['content-length'] = String(only.end - only.start + 1);
    return { status: 206, headers, body: await storage.read(key, only) };
  }
  headers['content-length'] = String(size);
  return { status: 200, headers, body: await storage.read(key) };
};

/** The conditional and range headers of a request, as storedContent reads them. */
export const contentRequestOf = (request: FastifyRequest) => ({
  range: request.headers.range,
  ifRange: [request.headers['if-range']].flat()[0],
  ifNoneMatch: request.headers['if-none-match'],
});

/** Sends a stored object's answer: its status and headers, never cached by shared caches; 416 says why. */
export const sendStoredContent = (reply: FastifyReply, answer: StoredContent) => {
  reply.status(answer.status).headers(answer.headers).header('cache-control', 'private, no-cache');
  if (answer.status === 416)
    return reply.send({ error: { code: ERROR_CODES.validation, message: 'The range is outside the file' } });
  return reply.send(answer.body);
};
