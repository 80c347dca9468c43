import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

/** The error code of a request whose body did not arrive in time (408). */
export const REQUEST_TIMEOUT_CODE = 'request_timeout';
export const MSG_REQUEST_BODY_TIMEOUT = 'The request body did not arrive in time; send it again';

/** A large body parsed whole gets more time than the minimum: at least this many bytes a second must come. */
const MIN_BODY_BYTES_PER_SECOND = 64 * 1024;

/**
 * Bodies that routes stream to storage (files): web uploads (multipart), the agents' tus uploads, thumbnails,
 * live segments. They may take hours; what they must do is keep coming.
 */
const STREAMED_BODY = /^\s*(multipart\/|application\/(offset\+)?octet-stream|image\/|video\/|audio\/)/i;

/** Whether the request carries a body at all (HTTP/1.1: a Content-Length above 0, or chunks). */
const hasBody = (request: FastifyRequest) => {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
};

/**
 * A request body must arrive (DESIGN "Persistence and faults": a connection that sends nothing is no
 * reason to keep a request). Node cuts slow headers after 60 s, but a body trickled a byte at a time (to the
 * unauthenticated sign-in too) was read for ever:
 * - a body parsed whole (JSON, text, forms) must arrive within REQUEST_BODY_TIMEOUT_SECONDS (30 s), or
 *   longer for a large one (64 kB/s), else the answer is 408 and the connection is closed;
 * - a streamed file (uploads, segments) may take as long as it needs while it keeps coming: nothing received
 *   for UPLOAD_STALL_SECONDS (60 s) while its reader waits, and the connection is closed.
 */
export const registerRequestBodyTimeouts = (
  app: FastifyInstance,
  config: Pick<Config, 'requestBodyTimeoutSeconds' | 'uploadStallSeconds'>,
) => {
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!hasBody(request) || request.raw.complete) {
      done(null, payload);
      return;
    }
    if (STREAMED_BODY.test(request.headers['content-type'] ?? '')) {
      watchProgress(request, reply, config.uploadStallSeconds * 1000);
      done(null, payload);
      return;
    }
    const declared = Number(request.headers['content-length']);
    const timeoutMs = Math.max(
      config.requestBodyTimeoutSeconds * 1000,
      Number.isFinite(declared) ? (declared / MIN_BODY_BYTES_PER_SECOND) * 1000 : 0,
    );
    done(null, withDeadline(reply, payload, timeoutMs));
  });
};

/** The body as a stream that fails with a 408 (and closes the connection) unless it ends in time. */
const withDeadline = (reply: FastifyReply, payload: NodeJS.ReadableStream, timeoutMs: number) => {
  const body = new PassThrough();
  const timer = setTimeout(() => {
    payload.unpipe(body);
    // The rest of the body is not read: the connection ends with the answer.
    reply.header('connection', 'close');
    body.destroy(new AppError(REQUEST_TIMEOUT_CODE, MSG_REQUEST_BODY_TIMEOUT, { status: 408 }));
  }, timeoutMs);
  const stop = () => clearTimeout(timer);
  body.once('end', stop).once('close', stop);
  reply.raw.once('close', stop);
  // A client that goes away fails the body as before (pipe does not carry errors).
  payload.once('error', (error) => body.destroy(error));
  payload.pipe(body);
  return body;
};

/**
 * Closes the connection of a streamed body when nothing arrives for `stallMs` while its reader waits for
 * more (a reader that is itself slow, the storage say, leaves bytes waiting in the request: that is not the
 * client's stall).
 */
const watchProgress = (request: FastifyRequest, reply: FastifyReply, stallMs: number) => {
  const socket = request.raw.socket;
  let seen = socket.bytesRead;
  let heardAt = Date.now();
  const timer = setInterval(
    () => {
      if (request.raw.complete || socket.destroyed) {
        clearInterval(timer);
        return;
      }
      if (socket.bytesRead !== seen || request.raw.readableLength > 0) {
        seen = socket.bytesRead;
        heardAt = Date.now();
        return;
      }
      if (Date.now() - heardAt < stallMs) return;
      clearInterval(timer);
      request.log.warn(
        { stalledSeconds: stallMs / 1000 },
        'an upload stopped sending; its connection is closed',
      );
      socket.destroy();
    },
    Math.min(1000, stallMs / 4),
  );
  timer.unref();
  reply.raw.once('close', () => clearInterval(timer));
};
