import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { AppSettings } from '@media/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const escapeForScript = (json: string) => json.replace(/</g, '\\u003c');

/** index.html with `window.__APP_SETTINGS__` injected, so configuration reaches the page without a call. */
export const renderIndexHtml = (html: string, settings: AppSettings) =>
  html.replace(
    '</head>',
    `<script>window.__APP_SETTINGS__=${escapeForScript(JSON.stringify(settings))};</script></head>`,
  );

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
  const settings: AppSettings = {
    csrfCookieName: config.csrfCookieName,
    csrfHeaderName: config.csrfHeaderName,
  };
  const page = hasBuild
    ? renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), settings)
    : renderIndexHtml(NO_WEB_BUILD, settings);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: false,
      wildcard: false,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    onPage(request, reply);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
  };
  app.get('/', { schema: { hide: true } }, sendPage);
  return { sendPage };
};
