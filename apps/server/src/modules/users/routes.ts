import {
  acceptingReadFields,
  CHANNELS,
  idParamSchema,
  resultsOf,
  userBatchCreateSchema,
  userImportResultSchema,
  userSchema,
  usersQuerySchema,
  usersResponseSchema,
  userUpdateSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { JsonAnswers, LIST_PAGES_KEPT, sessionPageKey } from '../../platform/http/json-answers.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerUserRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Read by every user search and people page: a page is kept per session and query while the auth epoch
  // stands still (migration 0029 moves it for a new user and any change of what the list shows or filters
  // by; rights, accounts and sites move it already).
  const userPages = new JsonAnswers<string>(services.authEpoch, LIST_PAGES_KEPT);
  const tags = ['users'];

  app.get(
    '/users',
    {
      schema: {
        tags,
        description:
          'Search users by user name, full name or email: administrators all users (type all, 20 a page), others the users of the sites where they manage (10 a page). With searchText, total counts matches up to 1,000 (totalCapped beyond)',
        querystring: usersQuerySchema,
        response: { 200: usersResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return userPages.send(
        request,
        reply,
        sessionPageKey(actor, request.query),
        actor.generation,
        async () => {
          const page = await service.listUsers({ ctx, actor, query: request.query });
          return { ...collection(page.rows, page.total, CHANNELS.users), totalCapped: page.totalCapped };
        },
      );
    },
  );
  app.post(
    '/users',
    {
      schema: {
        tags,
        description:
          'Create up to 100 users for a site (the CSV import); dryRun only checks. Each row answers success and message; the rows that pass are created in one transaction and mailed a registration link',
        body: userBatchCreateSchema,
        response: { 200: resultsOf(z.array(userImportResultSchema)) },
      },
    },
    async (request) =>
      results(
        await service.createUsers({
          ctx,
          actor: requireActor(request),
          siteId: request.body.siteId,
          dryRun: request.body.dryRun,
          rows: request.body.users,
        }),
      ),
  );
  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        description: 'One user',
        params: idParamSchema,
        response: { 200: resultsOf(userSchema) },
      },
    },
    async (request) =>
      results(await service.getUser({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/users/:id',
    {
      schema: {
        tags,
        description: 'Change a user; emailverified can only be raised',
        params: idParamSchema,
        body: acceptingReadFields(userUpdateSchema, userSchema),
        response: { 200: resultsOf(userSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateUser({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );
};
