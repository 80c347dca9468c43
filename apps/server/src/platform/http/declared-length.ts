import { ERROR_CODES } from '@media/contract';
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors.ts';

/** Room for the multipart framing around the file: boundaries, part headers (the file name), small fields. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;

/**
 * A hook for upload routes: a request whose declared Content-Length cannot hold a file within `maxBytes`
 * is a 413 before a byte of its body is read (multipart bodies are streamed, so the server-wide bodyLimit
 * does not apply to them). The connection is closed after the answer, so the refused body is not read
 * either. A body sent without Content-Length (chunked) is still cut at `maxBytes` while it streams.
 */
export const refuseDeclaredLengthOver =
  (maxBytes: number, message: string): onRequestHookHandler =>
  async (request, reply) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_FRAMING_BYTES) {
      reply.header('connection', 'close');
      throw new AppError(ERROR_CODES.tooLarge, message);
    }
  };
