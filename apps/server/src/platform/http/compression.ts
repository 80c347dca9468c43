import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them costs more than the bytes it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Answers over 1 kB (JSON lists of thousands of rows, CSV exports) compressed by the request's
 * Accept-Encoding: brotli at a quality that costs about what gzip does, else gzip. Left alone: what is
 * compressed already (video, images, the web build's precompressed files), byte ranges (206), and routes
 * that say `compress: false` (long-polls). Request bodies are not decompressed: a client sends them plain.
 */
export const registerCompression = (app: FastifyInstance) =>
  app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    globalDecompression: false,
  });
