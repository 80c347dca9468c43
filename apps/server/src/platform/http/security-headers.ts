import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { settingsScriptSource } from './web-app.ts';

/** A year, as browsers' preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The Content-Security-Policy of every answer (pages and API alike): everything from this origin only;
 * scripts from files, plus the page's one inline settings script by its hash. Styles may be inline:
 * Mantine writes its CSS variables and component styles into the page at run time. The player plays
 * from blob: URLs (segments through Media Source), and the floating player frames the player page, so
 * frames come from this origin and only this origin frames us.
 */
const contentSecurityPolicy = (config: Config) => ({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'", settingsScriptSource(config)],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    frameSrc: ["'self'"],
    frameAncestors: ["'self'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
  },
});

/**
 * Security headers on every answer (helmet): CSP, nosniff, same-origin framing (not DENY: the
 * floating player frames the embedded video player page, spec3 §2) and referrer. HSTS only on answers
 * that went over HTTPS (behind a proxy: X-Forwarded-Proto with TRUST_PROXY): sent over plain HTTP it
 * would lock a browser out of a server that has no HTTPS.
 */
export const registerSecurityHeaders = (app: FastifyInstance, config: Config) => {
  // Built once: @fastify/helmet builds helmet's middleware again for every request (a tenth of the CPU of
  // a cached GET /api/me in the api-read benchmark's profile).
  const setSecurityHeaders = helmet({
    contentSecurityPolicy: contentSecurityPolicy(config),
    xFrameOptions: { action: 'sameorigin' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: false,
  });
  // Helmet (8.1+) throws its errors; it calls back without one.
  app.addHook('onRequest', (request, reply, done) =>
    setSecurityHeaders(request.raw, reply.raw, () => done()),
  );
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
};
