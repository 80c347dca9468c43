import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_VERSIONS, apiVersionsSchema, ERROR_CODES, MSG_RATE_LIMITED } from '@media/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerRoleRoutes } from './modules/access/routes.ts';
import { loadRights } from './modules/access/service.ts';
import { registerAccountRoutes } from './modules/accounts/routes.ts';
import { registerAgentRoutes } from './modules/agent/routes.ts';
import { registerApiTokenRoutes } from './modules/api-tokens/routes.ts';
import { resolveBearer } from './modules/api-tokens/service.ts';
import { registerArrivalsRoutes } from './modules/arrivals/routes.ts';
import { registerAuditRoutes } from './modules/audit/routes.ts';
import { auditSink } from './modules/audit/service.ts';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { registerConfigRoutes, registerKeyMapDownload } from './modules/config/routes.ts';
import { registerDiagnosticsRoutes } from './modules/diagnostics/routes.ts';
import { registerEdgeRoutes } from './modules/edge/routes.ts';
import { registerEventRoutes } from './modules/events/routes.ts';
import { registerIngestRoutes } from './modules/ingest/routes.ts';
import { registerInviteRoutes } from './modules/invites/routes.ts';
import { registerManagerRoutes } from './modules/managers/routes.ts';
import { registerMetadataRoutes } from './modules/metadata/routes.ts';
import { registerMfaRoutes } from './modules/mfa/routes.ts';
import { registerDownloadRoutes } from './modules/nodes/download.routes.ts';
import { registerLiveRoutes } from './modules/nodes/live.routes.ts';
import { registerNodeRoutes } from './modules/nodes/routes.ts';
import { registerSubtitleRoutes } from './modules/nodes/subtitles.routes.ts';
import { registerNotificationRoutes } from './modules/notifications/routes.ts';
import { discoverProvider } from './modules/oidc/provider.ts';
import { registerOidcRoutes } from './modules/oidc/routes.ts';
import { registerOrganisationRoutes } from './modules/organisation/routes.ts';
import { registerPasswordRoutes } from './modules/passwords/routes.ts';
import { registerPublishingRoutes } from './modules/publishing/routes.ts';
import { registerSessionRoutes } from './modules/sessions/routes.ts';
import { registerStatusRoutes } from './modules/status/routes.ts';
import { registerUploadRoutes } from './modules/uploads/routes.ts';
import { registerUserRoutes } from './modules/users/routes.ts';
import { registerWebhookRoutes } from './modules/webhooks/routes.ts';
import { AuthEpoch } from './platform/auth/auth-epoch.ts';
import { RightsCache } from './platform/auth/rights-cache.ts';
import { SESSION_COOKIE, SessionStore } from './platform/auth/sessions.ts';
import type { AppContext, AppServices } from './platform/context.ts';
import { registerAudit } from './platform/http/audit.ts';
import { registerCompression } from './platform/http/compression.ts';
import { CsrfGuard } from './platform/http/csrf.ts';
import { registerErrorHandler } from './platform/http/error-handler.ts';
import { registerInputGuards } from './platform/http/input-guards.ts';
import { registerRequestBodyTimeouts } from './platform/http/request-body-timeout.ts';
import { registerRequestSession } from './platform/http/request-session.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { registerWebApp } from './platform/http/web-app.ts';
import { AccessLog, requestLoggerFactory } from './platform/logging.ts';

export const buildApp = async (ctx: AppContext): Promise<FastifyInstance> => {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.log,
    childLoggerFactory: requestLoggerFactory,
    logController: new AccessLog(ctx.log),
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    // Unique across restarts and instances: the audit log keeps it with each change.
    genReqId: () => randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before any route (each gets its operation id) and before the session's hook (a refused request is audited).
  registerAudit(app, auditSink(ctx.db));
  registerInputGuards(app);
  registerRequestBodyTimeouts(app, config);

  // Before anything opens: a wrong issuer stops the start saying which.
  const oidc = config.oidc ? await discoverProvider(config.oidc, config.publicUrl) : undefined;
  const authEpoch = await AuthEpoch.open(ctx.database);
  const services: AppServices = {
    oidc,
    authEpoch,
    sessions: new SessionStore(ctx.db, config, authEpoch, (error) =>
      ctx.log.warn({ err: error }, 'writing the activity time of sessions failed'),
    ),
    apiTokens: (token) =>
      resolveBearer(ctx.db, token, (error) =>
        ctx.log.warn({ err: error }, 'writing the last use of an API token failed'),
      ),
    rights: new RightsCache((userId, acting) => loadRights(ctx.db, userId, acting), authEpoch),
    csrf: new CsrfGuard(config, ctx.secretKey),
  };

  // Pending session activity is written before the database closes (ctx.close runs after app.close).
  app.addHook('onClose', async () => {
    await services.sessions.close();
    await authEpoch.close();
  });
  await app.register(fastifyCookie);
  await registerCompression(app);
  registerSecurityHeaders(app, config);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Media Cloud API',
        version: '1.0.0',
        description: 'Every call the web app and the edge agent make.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          csrf: { type: 'apiKey', in: 'header', name: config.csrfHeaderName },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  await app.register(fastifyRateLimit, {
    max: (_request, key) =>
      key.startsWith('e:') ? config.agentRateLimitPerMinute : config.rateLimitPerMinute,
    timeWindow: '1 minute',
    allowList: (request) => !request.url.startsWith('/api/'),
    // After the session is resolved (onRequest), so made-up session cookies count against the address.
    hook: 'preParsing',
    // An edge server's agent (its token checked in onRequest) counts apart from the people at its address.
    keyGenerator: (request) =>
      request.agentEdge
        ? `e:${request.agentEdge.id}`
        : request.actor
          ? `s:${request.actor.sessionIdHash}`
          : `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`${MSG_RATE_LIMITED} (${context.after})`), {
        statusCode: 429,
        code: ERROR_CODES.rateLimited,
      }),
  });

  registerRequestSession(app, services);

  app.get(
    '/config/apiVersions.json',
    {
      schema: {
        tags: ['platform'],
        description: 'API versions for the X-Api-Version header',
        response: { 200: apiVersionsSchema },
      },
    },
    () => API_VERSIONS,
  );

  registerKeyMapDownload(app, ctx);

  const web = await registerWebApp(app, config, (request, reply) =>
    services.csrf.ensureCookie(request, reply, request.secure),
  );

  await app.register(
    async (api) => {
      registerAuthRoutes(api, ctx, services);
      registerPasswordRoutes(api, ctx, services);
      registerMfaRoutes(api, ctx, services);
      registerApiTokenRoutes(api, ctx, services);
      registerOidcRoutes(api, ctx, services);
      registerRoleRoutes(api, ctx, services);
      registerEventRoutes(api, ctx, services);
      registerNotificationRoutes(api, ctx, services);
      registerOrganisationRoutes(api, ctx, services);
      registerAccountRoutes(api, ctx, services);
      registerUserRoutes(api, ctx, services);
      registerInviteRoutes(api, ctx, services);
      registerSessionRoutes(api, ctx, services);
      registerManagerRoutes(api, ctx, services);
      registerConfigRoutes(api, ctx, services);
      registerEdgeRoutes(api, ctx, services);
      registerArrivalsRoutes(api, ctx, services);
      registerIngestRoutes(api, ctx, services);
      registerNodeRoutes(api, ctx, services);
      registerLiveRoutes(api, ctx, services);
      registerStatusRoutes(api, ctx, services);
      registerDiagnosticsRoutes(api, ctx, services);
      registerWebhookRoutes(api, ctx, services);
      registerAuditRoutes(api, ctx, services);
      registerDownloadRoutes(api, ctx, services);
      await registerUploadRoutes(api, ctx, services);
      await registerMetadataRoutes(api, ctx, services);
      await registerSubtitleRoutes(api, ctx, services);
      await registerPublishingRoutes(api, ctx, services);
      await registerAgentRoutes(api, ctx, services);
    },
    { prefix: '/api' },
  );

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/config/');
    if (isPage && !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')) return web.sendPage(request, reply);
    return reply.status(404).send({
      error: {
        code: ERROR_CODES.notFound,
        message: `No route ${request.method} ${request.url.split('?')[0]}`,
      },
    });
  });

  return app;
};
