import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query values with these names never reach the log. */
const SECRET_QUERY_NAMES =
  /^(token|resettoken|resetType|password|code|mfacode|sessionid|csrftoken|secret|key)$/i;

export const redactUrl = (url: string) => {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of [...params.keys()]) if (SECRET_QUERY_NAMES.test(name)) params.set(name, '[redacted]');
  return `${url.slice(0, at)}?${params.toString()}`;
};

/** Paths pino replaces before anything is written: secrets in headers and in logged objects. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.mfaCode',
  '*.token',
  '*.resetToken',
  '*.sessionId',
  '*.secret',
  '*.cookie',
];

export const loggerOptions = (level: string): LoggerOptions => ({
  level,
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  serializers: {
    // Our own: only what is useful, never headers or bodies.
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    }),
  },
});
