import {
  accessPageQuerySchema,
  accountRoleSchema,
  accountRolesQuerySchema,
  accountUserSchema,
  CHANNELS,
  collectionOf,
  idParamSchema,
  okSchema,
  PERMISSIONS,
  pageQuerySchema,
  resultsOf,
  roleSchema,
  userAccessBatchSchema,
  userAccessParamsSchema,
  userAccessUpdateSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { JsonAnswers } from '../../platform/http/json-answers.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerRoleRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['access'];
  // Read by every role picker: kept while the auth epoch stands still (migration 0027 moves it for any role change).
  const rolePages = new JsonAnswers<string>(services.authEpoch);
  app.get(
    '/roles',
    {
      schema: {
        tags,
        description: 'The roles offered on every site, sorted by name',
        querystring: pageQuerySchema,
        response: { 200: collectionOf(roleSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { offset, limit } = request.query;
      return rolePages.send(request, reply, `${offset}:${limit}`, actor.generation, async () => {
        const page = await service.listRoles({ db: ctx.db, actor, offset, limit });
        return collection(page.rows, page.total, CHANNELS.roles);
      });
    },
  );
  app.get(
    '/account_roles',
    {
      schema: {
        tags,
        description: "Roles an account of this site can give: the cloud's and the site's own, by name",
        querystring: accountRolesQuerySchema,
        response: { 200: collectionOf(accountRoleSchema) },
      },
    },
    async (request) => {
      const rows = await service.listAccountRoles({
        ctx,
        actor: requireActor(request),
        siteId: request.query.siteId,
      });
      return collection(rows, rows.length, CHANNELS.siteRoles(request.query.siteId));
    },
  );
  app.get(
    '/permissions',
    {
      schema: {
        tags,
        description: 'Permission names a role can carry',
        response: { 200: resultsOf(z.array(z.enum(PERMISSIONS))) },
      },
    },
    async (request) => {
      requireActor(request);
      return results(service.listPermissions());
    },
  );

  app.get(
    '/accounts/:id/userAccess',
    {
      schema: {
        tags,
        description: "The account's users with their role (and version and skin), by user name",
        params: idParamSchema,
        querystring: accessPageQuerySchema,
        response: { 200: collectionOf(accountUserSchema) },
      },
    },
    async (request) => {
      const page = await service.listAccountUsers({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
        ...request.query,
      });
      return collection(page.rows, page.total, CHANNELS.userAccess(request.params.id));
    },
  );
  app.post(
    '/accounts/:id/userAccess',
    {
      schema: {
        tags,
        description: 'Give or change several users’ access at once (one transaction)',
        params: idParamSchema,
        body: userAccessBatchSchema,
        response: { 200: resultsOf(z.array(accountUserSchema)) },
      },
    },
    async (request) =>
      results(
        await service.saveAccess({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          changes: request.body.data,
        }),
      ),
  );
  app.post(
    '/accounts/:id/userAccess/:userId',
    {
      schema: {
        tags,
        description: "Give or change one user's access",
        params: userAccessParamsSchema,
        body: userAccessUpdateSchema,
        response: { 200: resultsOf(z.array(accountUserSchema)) },
      },
    },
    async (request) =>
      results(
        await service.saveAccess({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          changes: [{ userId: request.params.userId, ...request.body }],
        }),
      ),
  );
  app.delete(
    '/accounts/:id/userAccess/:userId',
    {
      schema: {
        tags,
        description: "Remove a user's access to the account",
        params: userAccessParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.removeAccess({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          userId: request.params.userId,
        }),
      ),
  );
};
