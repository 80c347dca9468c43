import { API_VERSION_HEADER, API_VERSIONS, ERROR_CODES, MSG_API_VERSION } from '@media/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** For ingest and node routes: the client must send a version this server supports. */
export const requireApiVersion =
  (accepted: readonly string[] = API_VERSIONS.supported) =>
  async (request: FastifyRequest) => {
    const sent = request.headers[API_VERSION_HEADER.toLowerCase()];
    if (typeof sent !== 'string' || !accepted.includes(sent)) {
      throw new AppError(
        ERROR_CODES.apiVersion,
        `${MSG_API_VERSION}: ${typeof sent === 'string' ? sent : 'none'}`,
      );
    }
  };
