import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
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
/** Where the web build's hashed files are served (Vite's assets folder). */
const BUILT_ASSETS = '/assets/';

export const registerSecurityHeaders = (app: FastifyInstance, config: Config) => {
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: contentSecurityPolicy(config),
      xFrameOptions: { action: 'sameorigin' },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: false,
    }),
  );
  const withHsts = { ...headers, 'strict-transport-security': HSTS };
  // The built scripts, styles and images are no documents: a policy, framing and referrer rule mean nothing
  // on them, and on the sign-in page's twenty scripts they were a fifth of the bytes received.
  const forAssets = {
    'x-content-type-options': headers['x-content-type-options'] ?? 'nosniff',
    'cross-origin-resource-policy': headers['cross-origin-resource-policy'] ?? 'same-origin',
  };
  const forAssetsWithHsts = { ...forAssets, 'strict-transport-security': HSTS };
  // Set on the reply, which sends them with whatever answer the request gets (an error's too) in one write;
  // a route that takes the raw answer over (reply.hijack) copies them itself (see hijackWithHeaders).
  app.addHook('onRequest', (request, reply, done) => {
    const https = request.protocol === 'https';
    if (request.url.startsWith(BUILT_ASSETS)) reply.headers(https ? forAssetsWithHsts : forAssets);
    else reply.headers(https ? withHsts : headers);
    done();
  });
};

/**
 * The headers a helmet middleware sets, read once from a stand-in answer: they do not depend on the request
 * for this configuration (no nonces), and running its dozen middlewares on each answer cost a tenth of the
 * server's time on a cached GET /api/me.
 */
const headersSetBy = (middleware: ReturnType<typeof helmet>) => {
  const headers: Record<string, string> = {};
  const standIn = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  middleware({} as IncomingMessage, standIn as unknown as ServerResponse, () => {
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers at once');
  return headers;
};

/** Takes the raw answer over (reply.hijack) with the headers the reply holds so far, the security ones. */
export const hijackWithHeaders = (reply: FastifyReply) => {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
};
