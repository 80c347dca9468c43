import {
  collectionOf,
  idParamSchema,
  okSchema,
  PUBLISH_CONTEXTS,
  pageQuerySchema,
  publishHelpBodySchema,
  publishHelpQuerySchema,
  publishSchema,
  recycledButtonSchema,
  resultsOf,
  serverFormActionSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { publishHelp } from './help.ts';
import { getPublish, listButtonPublishes, republish } from './publishes.ts';
import { listRecycleBin, purgeButton, restoreButton } from './recycle-bin.ts';

/** Published items: a button's list, one item, republish, and the Recycle Bin (DESIGN "Publishing"). */
export const registerPublishRoutes = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['publishing'];
  app.get(
    '/publishButtons/:id/publishes',
    {
      schema: {
        tags,
        description: "The button's published items, newest first (who may read the button)",
        params: idParamSchema,
        querystring: pageQuerySchema,
        response: { 200: collectionOf(publishSchema) },
      },
    },
    async (request) => {
      const { rows, total, channel } = await listButtonPublishes({
        ctx,
        actor: requireActor(request),
        id: request.params.id,
        ...request.query,
      });
      return collection(rows, total, channel);
    },
  );
  app.get(
    '/publishes/:id',
    {
      schema: {
        tags,
        description: 'One published item: status, progress, log and where the result went',
        params: idParamSchema,
        response: { 200: resultsOf(publishSchema) },
      },
    },
    async (request) =>
      results(await getPublish({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/publishes/:id/republish',
    {
      schema: {
        tags,
        description: 'Run the button again on the same node with the stored options, as a new published item',
        params: idParamSchema,
        response: { 200: resultsOf(publishSchema) },
      },
    },
    async (request) => results(await republish({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.get(
    '/publishes/:id/help',
    {
      schema: {
        tags,
        description:
          "The published item's help (spec3 §4): a server form action; set-options names the next step to call with",
        params: idParamSchema,
        querystring: publishHelpQuerySchema,
        response: { 200: resultsOf(serverFormActionSchema) },
      },
    },
    async (request) =>
      results(
        await publishHelp({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          options: request.query.options,
        }),
      ),
  );
  app.post(
    '/publishes/:id/help',
    {
      schema: {
        tags,
        description:
          'The next step of the help, with the options of the last set-options (and publishMediaId)',
        params: idParamSchema,
        body: publishHelpBodySchema,
        response: { 200: resultsOf(serverFormActionSchema) },
      },
    },
    async (request) =>
      results(
        await publishHelp({ ctx, actor: requireActor(request), id: request.params.id, ...request.body }),
      ),
  );
  for (const kind of PUBLISH_CONTEXTS)
    app.get(
      `/${kind}/:id/recycleBin`,
      {
        schema: {
          tags,
          description: 'Trashed buttons with the published items they took with them (managers)',
          params: idParamSchema,
          response: { 200: resultsOf(z.array(recycledButtonSchema)) },
        },
      },
      async (request) =>
        results(await listRecycleBin({ ctx, actor: requireActor(request), kind, id: request.params.id })),
    );
  for (const [action, run, description] of [
    ['restore', restoreButton, 'Take a trashed button and its published items out of the Recycle Bin'],
    ['purge', purgeButton, 'Delete a trashed button and its published items for good'],
  ] as const)
    app.post(
      `/publishButtons/:id/${action}`,
      { schema: { tags, description, params: idParamSchema, response: { 200: okSchema } } },
      async (request) => results(await run({ ctx, actor: requireActor(request), id: request.params.id })),
    );
};
