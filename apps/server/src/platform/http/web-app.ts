import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { AppSettings } from '@media/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const escapeForScript = (json: string) => json.replace(/</g, '\\u003c');

/** What the page learns from the configuration (DESIGN "Anti-forgery"). */
const appSettingsOf = (config: Config): AppSettings => ({
  csrfCookieName: config.csrfCookieName,
  csrfHeaderName: config.csrfHeaderName,
  oidcButtonText: config.oidc?.buttonText ?? null,
  passwordSignIn: config.passwordSignIn,
});

const settingsScript = (settings: AppSettings) =>
  `window.__APP_SETTINGS__=${escapeForScript(JSON.stringify(settings))};`;

/**
 * The Content-Security-Policy source that lets the page's one inline script (the settings) run, and no
 * other: its hash. The script only changes with the configuration, so a hash serves where a nonce would
 * have to be made per answer.
 */
export const settingsScriptSource = (config: Config) =>
  `'sha256-${createHash('sha256')
    .update(settingsScript(appSettingsOf(config)))
    .digest('base64')}'`;

/** index.html with `window.__APP_SETTINGS__` injected, so configuration reaches the page without a call. */
export const renderIndexHtml = (html: string, settings: AppSettings) =>
  html.replace('</head>', `<script>${settingsScript(settings)}</script></head>`);

const NO_WEB_BUILD = `<!doctype html><html><head><title>Media Cloud</title></head><body>
<p>The web app has not been built. Run <code>npm run build</code> (npm start does this for you).</p></body></html>`;

/** Serves the built web app and falls back to it for page routes; the API keeps its own 404s. */
export const registerWebApp = async (
  app: FastifyInstance,
  config: Config,
  onPage: (request: FastifyRequest, reply: FastifyReply) => void,
) => {
  const indexFile = path.join(config.webDist, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const settings = appSettingsOf(config);
  const page = hasBuild
    ? renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), settings)
    : renderIndexHtml(NO_WEB_BUILD, settings);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: false,
      wildcard: false,
      // The build wrote brotli and gzip copies (scripts/precompress.mjs): sent by the Accept-Encoding asked.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    onPage(request, reply);
    // Asked again at each visit, so a new build's hashed assets are found at once; those are immutable.
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  };
  app.get('/', { schema: { hide: true } }, sendPage);
  return { sendPage };
};
