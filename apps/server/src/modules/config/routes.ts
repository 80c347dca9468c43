import {
  CHANNELS,
  COLUMN_KINDS,
  COLUMN_PATHS,
  collectionOf,
  columnSetSchemas,
  defaultKeyShortcutSchema,
  EXTRA_DATA_SCOPES,
  extraDataSchema,
  extraDataUpdateSchema,
  idParamSchema,
  idTextSchema,
  ingestFormatsSchema,
  keyboardExpansionExportSchema,
  keyboardExpansionMapSchema,
  keyboardExpansionsQuerySchema,
  keyShortcutAccessLevelSchema,
  keyShortcutBatchSchema,
  keyShortcutContextSchema,
  keyShortcutPutSchema,
  keyShortcutSetSchema,
  okSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { attachment } from '../../platform/http/attachment.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { getAccount } from '../accounts/service.ts';
import * as service from './service.ts';

/** The API of account configuration: extra data, ingest formats, keyboard expansion maps, key shortcuts. */
export const registerConfigRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  for (const scope of EXTRA_DATA_SCOPES) {
    app.get(
      `/${scope}/:id/extraData`,
      {
        schema: {
          tags: ['extra data'],
          description: `Extra key/value data of one of the ${scope} (keys with their prefix)`,
          params: idParamSchema,
          response: { 200: resultsOf(extraDataSchema) },
        },
      },
      async (request) =>
        results(
          await service.getExtraData({ ctx, actor: requireActor(request), scope, id: request.params.id }),
        ),
    );
    app.post(
      `/${scope}/:id/extraData`,
      {
        schema: {
          tags: ['extra data'],
          description:
            'Set keys to values (trimmed); a null value deletes the key. Answers the updated object.',
          params: idParamSchema,
          body: extraDataUpdateSchema,
          response: { 200: resultsOf(extraDataSchema) },
        },
      },
      async (request) =>
        results(
          await service.updateExtraData({
            ctx,
            actor: requireActor(request),
            scope,
            id: request.params.id,
            update: request.body,
          }),
        ),
    );
  }

  for (const scope of ['accounts', 'sites'] as const)
    for (const kind of COLUMN_KINDS) {
      const owner = (id: number) => ({ scope, id });
      const setSchema = columnSetSchemas[kind];
      app.get(
        `/${scope}/:id/${COLUMN_PATHS[kind].own}`,
        {
          schema: {
            tags: ['columns'],
            description: `The ${kind} metadata columns of one of the ${scope}: its own, or what it inherits when autoInherit`,
            params: idParamSchema,
            response: { 200: resultsOf(setSchema) },
          },
        },
        async (request) =>
          results(
            await service.getColumns({
              ctx,
              actor: requireActor(request),
              owner: owner(request.params.id),
              kind,
            }),
          ),
      );
      app.post(
        `/${scope}/:id/${COLUMN_PATHS[kind].own}`,
        {
          schema: {
            tags: ['columns'],
            description: `Save the ${kind} metadata columns; with autoInherit the list becomes a copy of the defaults`,
            params: idParamSchema,
            body: setSchema,
            response: { 200: resultsOf(setSchema) },
          },
        },
        async (request) =>
          results(
            await service.saveColumns({
              ctx,
              actor: requireActor(request),
              owner: owner(request.params.id),
              kind,
              set: request.body,
            }),
          ),
      );
      app.get(
        `/${scope}/:id/${COLUMN_PATHS[kind].defaults}`,
        {
          schema: {
            tags: ['columns'],
            description: `The ${kind} metadata columns one of the ${scope} inherits (its site's, or the cloud's)`,
            params: idParamSchema,
            response: { 200: resultsOf(setSchema.shape.columns) },
          },
        },
        async (request) =>
          results(
            await service.getDefaultColumns({
              ctx,
              actor: requireActor(request),
              owner: owner(request.params.id),
              kind,
            }),
          ),
      );
    }

  app.get(
    '/accounts/:id/ingestFormats',
    {
      schema: {
        tags: ['ingest formats'],
        description: "The account's ingest formats as stored strings (standard_aspect[_resolution])",
        params: idParamSchema,
        response: { 200: resultsOf(z.array(z.string())) },
      },
    },
    async (request) =>
      results(
        await service.getIngestFormats({ ctx, actor: requireActor(request), accountId: request.params.id }),
      ),
  );
  app.post(
    '/accounts/:id/ingestFormats',
    {
      schema: {
        tags: ['ingest formats'],
        description: 'Replace the ingest formats; answers them normalised',
        params: idParamSchema,
        body: ingestFormatsSchema,
        response: { 200: resultsOf(z.array(z.string())) },
      },
    },
    async (request) =>
      results(
        await service.saveIngestFormats({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          formats: request.body,
        }),
      ),
  );

  app.get(
    '/keyboardExpansions',
    {
      schema: {
        tags: ['keyboard expansions'],
        description: "An account's keyboard expansion maps, by name",
        querystring: keyboardExpansionsQuerySchema,
        response: { 200: collectionOf(keyboardExpansionMapSchema) },
      },
    },
    async (request) => {
      const rows = await service.listKeyMaps({
        ctx,
        actor: requireActor(request),
        accountId: request.query.accountId,
      });
      return collection(rows, rows.length, CHANNELS.keyboardExpansions(request.query.accountId));
    },
  );
  app.post(
    '/keyboardExpansions',
    {
      schema: {
        tags: ['keyboard expansions'],
        description: 'Export: copy the map cloneFromId into accountId under a new name',
        body: keyboardExpansionExportSchema,
        response: { 200: resultsOf(keyboardExpansionMapSchema) },
      },
    },
    async (request) =>
      results(await service.exportKeyMap({ ctx, actor: requireActor(request), body: request.body })),
  );

  app.get(
    '/keyshortcuts',
    {
      schema: {
        tags: ['key shortcuts'],
        description:
          "Key shortcut sets seen from a context: the cloud's, the site's, the account's and the user's",
        querystring: keyShortcutContextSchema,
        response: { 200: collectionOf(keyShortcutSetSchema) },
      },
    },
    async (request) => {
      const rows = await service.listKeyShortcuts({
        ctx,
        actor: requireActor(request),
        context: request.query,
      });
      return collection(rows, rows.length, CHANNELS.keyShortcuts);
    },
  );
  app.put(
    '/keyshortcuts/:id',
    {
      schema: {
        tags: ['key shortcuts'],
        description: 'Change a set (name, parent, visible, level) with the context fields of the page',
        params: idParamSchema,
        body: keyShortcutPutSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.updateKeyShortcuts({
          ctx,
          actor: requireActor(request),
          changes: [{ ...request.body, id: request.params.id }],
        }),
      ),
  );
  app.put(
    '/keyshortcuts',
    {
      schema: {
        tags: ['key shortcuts'],
        description: 'Change several sets together (all or none)',
        body: keyShortcutBatchSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.updateKeyShortcuts({ ctx, actor: requireActor(request), changes: request.body })),
  );
  app.post(
    '/keyshortcuts/:id/trash',
    {
      schema: {
        tags: ['key shortcuts'],
        description: 'Delete a set; its children lose their parent',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.trashKeyShortcutSet({ ctx, actor: requireActor(request), id: request.params.id }),
      ),
  );
  app.post(
    '/defaultKeyshortcuts',
    {
      schema: {
        tags: ['key shortcuts'],
        description: 'Make a set the default of the account (if given), else the site, else the cloud',
        body: defaultKeyShortcutSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.setDefaultKeyShortcut({ ctx, actor: requireActor(request), data: request.body.data }),
      ),
  );
  app.get(
    '/keyshortcutsAccessLevel',
    {
      schema: {
        tags: ['key shortcuts'],
        description: 'The levels the user may change key shortcuts at from this context',
        querystring: keyShortcutContextSchema,
        response: { 200: resultsOf(keyShortcutAccessLevelSchema) },
      },
    },
    async (request) =>
      results(
        await service.keyShortcutAccessLevel({ ctx, actor: requireActor(request), context: request.query }),
      ),
  );
};

/** spec1 §2's Key map download link, outside `/api` because the link shape is a page path. */
export const registerKeyMapDownload = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/accounts/:accountName/generatekeyexpansion',
    {
      schema: {
        tags: ['keyboard expansions'],
        description: 'Download a keyboard expansion map as XML',
        params: z.object({ accountName: z.string().min(1).max(200) }),
        querystring: z.object({ id: idTextSchema }),
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const account = await getAccount({ ctx, actor, name: request.params.accountName });
      const { name, xml } = await service.keyMapXml({
        ctx,
        actor,
        accountId: account.id,
        id: request.query.id,
      });
      const fileName = `${name.replace(/[^\w.-]+/g, '_') || 'keymap'}.xml`;
      return reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .send(xml);
    },
  );
};
