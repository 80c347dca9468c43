import multipart from '@fastify/multipart';
import {
  acceptingReadFields,
  CHANNELS,
  collectionOf,
  idParamSchema,
  MSG_UPLOAD_NO_FILE,
  moduleActionBodySchema,
  okSchema,
  PUBLISH_CONTEXTS,
  PUBLISH_ICON_MAX_BYTES,
  PUBLISH_MESSAGES,
  phaseSchema,
  publishButtonBodySchema,
  publishButtonSchema,
  publishButtonStatusSchema,
  publishButtonsQuerySchema,
  publishButtonUpdateSchema,
  publishIconSchema,
  publishLocationSchema,
  publishModuleSchema,
  publishModulesQuerySchema,
  resultsOf,
  roleRestrictionSchema,
  serverFormActionSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { refuseDeclaredLengthOver } from '../../platform/http/declared-length.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { registerPublishRoutes } from './publishes.routes.ts';
import * as service from './service.ts';
import { registerYoutubeRoutes } from './youtube.routes.ts';

/** The spec's field name of the file part (spec3 §7). */
const FILE_FIELD = 'uploadfile';

/** Without phases=expand a listed button carries `phases: []` (its flags still come from its phases). */
const listedButtonSchema = publishButtonSchema.extend({ phases: z.array(phaseSchema) });
const roleRestrictionsSchema = z.array(roleRestrictionSchema).max(200);
const moduleActionParamsSchema = idParamSchema.extend({
  moduleId: z.string().min(1).max(100),
  action: z.string().min(1).max(100),
});

const iconOf = (request: FastifyRequest) => async (): Promise<service.IncomingIcon | undefined> => {
  if (!request.isMultipart()) throw badRequest(MSG_UPLOAD_NO_FILE);
  const part = await request.file({ limits: { fileSize: PUBLISH_ICON_MAX_BYTES, files: 1 } });
  if (!part) return undefined;
  if (part.fieldname !== FILE_FIELD) {
    part.file.resume();
    throw badRequest(MSG_UPLOAD_NO_FILE);
  }
  return { fileName: part.filename, stream: part.file };
};

/**
 * Publishing buttons, modules, locations and icons (spec3 §7). Each ctx route is registered for
 * `sites/{id}` and `accounts/{id}`; multipart is parsed only in this module's scope.
 */
export const registerPublishingRoutes = async (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  await fastify.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: PUBLISH_ICON_MAX_BYTES, files: 1, fields: 5 } });
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['publishing'];
    registerPublishRoutes(scope, ctx);
    registerYoutubeRoutes(scope, ctx);

    for (const kind of PUBLISH_CONTEXTS) {
      const call = (request: FastifyRequest, id: number) => ({
        ctx,
        actor: requireActor(request),
        kind,
        id,
      });
      app.get(
        `/${kind}/:id/publishLocations`,
        {
          schema: {
            tags,
            description: 'Where buttons can run: the cloud and the edge servers of the site',
            params: idParamSchema,
            response: { 200: resultsOf(z.array(publishLocationSchema)) },
          },
        },
        async (request) => results(await service.listLocations(call(request, request.params.id))),
      );
      app.get(
        `/${kind}/:id/publishModules`,
        {
          schema: {
            tags,
            description: 'The publish modules, of one type with ?kind=',
            params: idParamSchema,
            querystring: publishModulesQuerySchema,
            response: { 200: resultsOf(z.array(publishModuleSchema)) },
          },
        },
        async (request) =>
          results(
            await service.listModules({ ...call(request, request.params.id), type: request.query.kind }),
          ),
      );
      app.get(
        `/${kind}/:id/publishButtons`,
        {
          schema: {
            tags,
            description:
              "The context's buttons by name (an account with includeAll adds its site's); phases only with phases=expand; account users see the enabled buttons their role may use",
            params: idParamSchema,
            querystring: publishButtonsQuerySchema,
            response: { 200: collectionOf(listedButtonSchema) },
          },
        },
        async (request) => {
          const rows = await service.listButtons({
            ...call(request, request.params.id),
            expand: request.query.phases === 'expand',
            includeAll: request.query.includeAll,
          });
          return collection(rows, rows.length, CHANNELS.publishButtons(kind, request.params.id));
        },
      );
      app.post(
        `/${kind}/:id/publishButtons`,
        {
          schema: {
            tags,
            description:
              "Create a button (the managers); a bad network is a 400 'bad_network' listing every problem",
            params: idParamSchema,
            body: publishButtonBodySchema,
            response: { 200: resultsOf(z.object({ id: z.number().int() })) },
          },
        },
        async (request) =>
          results(await service.createButton({ ...call(request, request.params.id), body: request.body })),
      );
      app.get(
        `/${kind}/:id/publishIcons`,
        {
          schema: {
            tags,
            description: "The context's icons; an account also lists its site's (from 'other')",
            params: idParamSchema,
            response: { 200: collectionOf(publishIconSchema) },
          },
        },
        async (request) => {
          const rows = await service.listIcons(call(request, request.params.id));
          return collection(rows, rows.length, CHANNELS.publishIcons(kind, request.params.id));
        },
      );
      app.post(
        `/${kind}/:id/publishIcons`,
        {
          schema: {
            tags,
            description:
              'Upload an icon (multipart field uploadfile, at most 1 MB, PNG, JPEG, GIF, WebP or SVG by content); stored as a PNG of at most 256 px',
            params: idParamSchema,
            consumes: ['multipart/form-data'],
            response: { 200: resultsOf(publishIconSchema) },
          },
          onRequest: refuseDeclaredLengthOver(PUBLISH_ICON_MAX_BYTES, PUBLISH_MESSAGES.iconTooLarge),
        },
        async (request) =>
          results(
            await service.uploadIcon({ ...call(request, request.params.id), readFile: iconOf(request) }),
          ),
      );
      app.post(
        `/${kind}/:id/publishModules/:moduleId/actions/:action`,
        {
          schema: {
            tags,
            description: 'A server form action of a module (folder-export check, youtube connect, ftp test)',
            params: moduleActionParamsSchema,
            body: moduleActionBodySchema,
            response: { 200: resultsOf(serverFormActionSchema) },
          },
        },
        async (request) =>
          results(
            await service.moduleAction({
              ...call(request, request.params.id),
              moduleId: request.params.moduleId,
              action: request.params.action,
              options: request.body.options,
            }),
          ),
      );
    }

    const byId = (request: FastifyRequest, id: number) => ({ ctx, actor: requireActor(request), id });
    app.post(
      '/publishButtons/:id',
      {
        schema: {
          tags,
          description:
            'Save the whole button, rename it with {id, name}, or enable or disable it with {enabled}',
          params: idParamSchema,
          body: acceptingReadFields(publishButtonUpdateSchema, publishButtonSchema),
          response: { 200: resultsOf(publishButtonSchema) },
        },
      },
      async (request) =>
        results(await service.updateButton({ ...byId(request, request.params.id), change: request.body })),
    );
    app.post(
      '/publishButtons/:id/trash',
      {
        schema: {
          tags,
          description: 'Delete the button; its published items go to the Recycle Bin',
          params: idParamSchema,
          response: { 200: okSchema },
        },
      },
      async (request) => results(await service.trashButton(byId(request, request.params.id))),
    );
    app.get(
      '/publishButtons/:id/status',
      {
        schema: {
          tags,
          description: 'How many published items the button has (not in the Recycle Bin)',
          params: idParamSchema,
          response: { 200: resultsOf(publishButtonStatusSchema) },
        },
      },
      async (request) => results(await service.buttonStatus(byId(request, request.params.id))),
    );
    app.get(
      '/publishButtons/:id/roleRestrictions',
      {
        schema: {
          tags,
          description: "Every role of the button's site, allowed unless restricted",
          params: idParamSchema,
          response: { 200: resultsOf(roleRestrictionsSchema) },
        },
      },
      async (request) => results(await service.listRoleRestrictions(byId(request, request.params.id))),
    );
    app.post(
      '/publishButtons/:id/roleRestrictions',
      {
        schema: {
          tags,
          description: "Replace the button's role restrictions; every role must be of the site",
          params: idParamSchema,
          body: roleRestrictionsSchema,
          response: { 200: resultsOf(roleRestrictionsSchema) },
        },
      },
      async (request) =>
        results(
          await service.saveRoleRestrictions({ ...byId(request, request.params.id), list: request.body }),
        ),
    );
    app.post(
      '/publishIcons/:id/trash',
      {
        schema: {
          tags,
          description: 'Delete the icon; buttons that showed it show none',
          params: idParamSchema,
          response: { 200: okSchema },
        },
      },
      async (request) => results(await service.trashIcon(byId(request, request.params.id))),
    );
    app.get(
      '/publishIcons/:id/image',
      {
        schema: {
          tags,
          description: 'The icon as image/png, with an ETag (304 when current)',
          params: idParamSchema,
        },
      },
      async (request, reply) => {
        const { etag, contentType, image } = await service.iconImage({
          ...byId(request, request.params.id),
          ifNoneMatch: request.headers['if-none-match'],
        });
        reply.header('cache-control', 'private, no-cache').header('etag', etag);
        return image ? reply.type(contentType).send(image) : reply.status(304).send();
      },
    );
  });
};
