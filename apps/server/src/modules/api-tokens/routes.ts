import {
  apiTokenCreatedSchema,
  apiTokenCreateSchema,
  apiTokenListSchema,
  apiTokenParamsSchema,
  idParamSchema,
  okSchema,
  userApiTokenParamsSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerApiTokenRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['API tokens'];
  const db = ctx.db;

  app.get(
    '/me/apiTokens',
    {
      schema: {
        tags,
        description: 'Your API tokens (not revoked), newest first; never the tokens themselves',
        response: { 200: apiTokenListSchema },
      },
    },
    async (request) => results(await service.listOwn(db, requireActor(request))),
  );
  app.post(
    '/me/apiTokens',
    {
      schema: {
        tags,
        description:
          'Make an API token that acts as you (read: GET only; write: everything you may do); the answer holds the token, this once',
        body: apiTokenCreateSchema,
        response: { 200: apiTokenCreatedSchema },
      },
    },
    async (request) => results(await service.create(db, ctx.config, requireActor(request), request.body)),
  );
  app.post(
    '/me/apiTokens/:id/trash',
    {
      schema: {
        tags,
        description: 'Revoke one of your API tokens: refused from the next request on',
        params: apiTokenParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.trashOwn(db, ctx.config, requireActor(request), request.params.id);
      return results({ ok: true as const });
    },
  );
  app.get(
    '/users/:id/apiTokens',
    {
      schema: {
        tags,
        description: "A user's API tokens (administrators)",
        params: idParamSchema,
        response: { 200: apiTokenListSchema },
      },
    },
    async (request) => results(await service.listOfUser(db, requireActor(request), request.params.id)),
  );
  app.post(
    '/users/:id/apiTokens/:tokenId/trash',
    {
      schema: {
        tags,
        description: "Revoke a user's API token (administrators)",
        params: userApiTokenParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.trashOfUser(db, requireActor(request), request.params.id, request.params.tokenId);
      return results({ ok: true as const });
    },
  );
};
