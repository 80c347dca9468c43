import {
  CHANNELS,
  collectionOf,
  idParamSchema,
  orgQuerySchema,
  resellerCreateSchema,
  resellerSchema,
  resellerUpdateSchema,
  resultsOf,
  siteCreateSchema,
  siteGroupCreateSchema,
  siteGroupSchema,
  siteGroupsQuerySchema,
  siteGroupUpdateSchema,
  sitePermissionsSchema,
  siteSchema,
  sitesQuerySchema,
  siteUpdateSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerOrganisationRoutes = (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['organisation'];

  app.get(
    '/resellers',
    {
      schema: {
        tags,
        description: 'Resellers the user manages (administrators: all), by name',
        querystring: orgQuerySchema,
        response: { 200: collectionOf(resellerSchema) },
      },
    },
    async (request) => {
      const page = await service.listResellers({ ctx, actor: requireActor(request), ...request.query });
      return collection(page.rows, page.total, CHANNELS.resellers);
    },
  );
  app.post(
    '/resellers',
    {
      schema: {
        tags,
        description: 'Create a reseller (administrators)',
        body: resellerCreateSchema,
        response: { 200: resultsOf(resellerSchema) },
      },
    },
    async (request) =>
      results(await service.createReseller({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.post(
    '/resellers/:id',
    {
      schema: {
        tags,
        description: 'Rename, disable or enable a reseller',
        params: idParamSchema,
        body: resellerUpdateSchema,
        response: { 200: resultsOf(resellerSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateReseller({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );

  app.get(
    '/siteGroups',
    {
      schema: {
        tags,
        description: 'Site groups the user manages, by name',
        querystring: siteGroupsQuerySchema,
        response: { 200: collectionOf(siteGroupSchema) },
      },
    },
    async (request) => {
      const page = await service.listSiteGroups({ ctx, actor: requireActor(request), ...request.query });
      return collection(page.rows, page.total, CHANNELS.siteGroups);
    },
  );
  app.post(
    '/siteGroups',
    {
      schema: {
        tags,
        description: 'Create a site group under a reseller',
        body: siteGroupCreateSchema,
        response: { 200: resultsOf(siteGroupSchema) },
      },
    },
    async (request) =>
      results(await service.createSiteGroup({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.post(
    '/siteGroups/:id',
    {
      schema: {
        tags,
        description: 'Rename, move, disable or enable a site group',
        params: idParamSchema,
        body: siteGroupUpdateSchema,
        response: { 200: resultsOf(siteGroupSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateSiteGroup({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );

  app.get(
    '/sites',
    {
      schema: {
        tags,
        description: 'Sites the user can see (manages, or has an account in), by name',
        querystring: sitesQuerySchema,
        response: { 200: collectionOf(siteSchema) },
      },
    },
    async (request) => {
      const page = await service.listSites({ ctx, actor: requireActor(request), ...request.query });
      return collection(page.rows, page.total, CHANNELS.sites);
    },
  );
  app.post(
    '/sites',
    {
      schema: {
        tags,
        description: 'Create a site in a site group',
        body: siteCreateSchema,
        response: { 200: resultsOf(siteSchema) },
      },
    },
    async (request) =>
      results(await service.createSite({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.get(
    '/sites/:id',
    {
      schema: {
        tags,
        description: 'One site',
        params: idParamSchema,
        response: { 200: resultsOf(siteSchema) },
      },
    },
    async (request) =>
      results(await service.getSite({ ctx, actor: requireActor(request), siteId: request.params.id })),
  );
  app.post(
    '/sites/:id',
    {
      schema: {
        tags,
        description: 'Rename, move, disable or enable a site',
        params: idParamSchema,
        body: siteUpdateSchema,
        response: { 200: resultsOf(siteSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateSite({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );
  app.get(
    '/sites/:id/permissions',
    {
      schema: {
        tags,
        description: 'What the signed-in user may do on this site',
        params: idParamSchema,
        response: { 200: resultsOf(sitePermissionsSchema) },
      },
    },
    async (request) =>
      results(
        await service.sitePermissions({ ctx, actor: requireActor(request), siteId: request.params.id }),
      ),
  );
};
