import {
  accountWebhooksQuerySchema,
  idParamSchema,
  okSchema,
  webhookAnswerSchema,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryAnswerSchema,
  webhookDeliveryDetailSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookUpdateSchema,
  webhookWithSecretSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerWebhookRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];

  app.get(
    '/accounts/:id/webhooks',
    {
      schema: {
        tags,
        description: "An account's webhooks (its managers and above)",
        params: idParamSchema,
        querystring: accountWebhooksQuerySchema,
        response: { 200: webhookListSchema },
      },
    },
    async (request) => service.list(ctx, requireActor(request), request.params.id, request.query),
  );
  app.post(
    '/accounts/:id/webhooks',
    {
      schema: {
        tags,
        description: "Make a webhook told of the account's events; the answer holds its secret, this once",
        params: idParamSchema,
        body: webhookCreateSchema,
        response: { 200: webhookWithSecretSchema },
      },
    },
    async (request) =>
      results(await service.create(ctx, requireActor(request), request.params.id, request.body)),
  );
  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        description: "The cloud's webhooks, told of every account's events (administrators)",
        querystring: accountWebhooksQuerySchema,
        response: { 200: webhookListSchema },
      },
    },
    async (request) => service.list(ctx, requireActor(request), null, request.query),
  );
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        description: 'Make a cloud webhook (administrators); the answer holds its secret, this once',
        body: webhookCreateSchema,
        response: { 200: webhookWithSecretSchema },
      },
    },
    async (request) => results(await service.create(ctx, requireActor(request), null, request.body)),
  );
  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        description: 'One webhook',
        params: webhookParamsSchema,
        response: { 200: webhookAnswerSchema },
      },
    },
    async (request) => results(await service.get(ctx, requireActor(request), request.params.id)),
  );
  app.post(
    '/webhooks/:id',
    {
      schema: {
        tags,
        description: 'Change a webhook: its address, events, description; enable or disable it',
        params: webhookParamsSchema,
        body: webhookUpdateSchema,
        response: { 200: webhookAnswerSchema },
      },
    },
    async (request) =>
      results(await service.update(ctx, requireActor(request), request.params.id, request.body)),
  );
  app.post(
    '/webhooks/:id/trash',
    {
      schema: {
        tags,
        description: 'Remove a webhook and its deliveries; waiting deliveries are not sent',
        params: webhookParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.trash(ctx, requireActor(request), request.params.id);
      return results({ ok: true as const });
    },
  );
  app.post(
    '/webhooks/:id/rotateSecret',
    {
      schema: {
        tags,
        description: 'A new signing secret, answered this once; the old one stops at once',
        params: webhookParamsSchema,
        response: { 200: webhookWithSecretSchema },
      },
    },
    async (request) => results(await service.rotateSecret(ctx, requireActor(request), request.params.id)),
  );
  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags,
        description: 'Send a ping delivery now',
        params: webhookParamsSchema,
        response: { 200: webhookDeliveryAnswerSchema },
      },
    },
    async (request) => results(await service.test(ctx, requireActor(request), request.params.id)),
  );
  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        description: "A webhook's deliveries, newest first",
        params: webhookParamsSchema,
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    async (request) => service.deliveries(ctx, requireActor(request), request.params.id, request.query),
  );
  app.get(
    '/webhookDeliveries/:id',
    {
      schema: {
        tags,
        description: 'One delivery with what was sent and what the receiver answered (first 2 kB of each)',
        params: webhookDeliveryParamsSchema,
        response: { 200: webhookDeliveryDetailSchema },
      },
    },
    async (request) => results(await service.delivery(ctx, requireActor(request), request.params.id)),
  );
  app.post(
    '/webhookDeliveries/:id/retry',
    {
      schema: {
        tags,
        description: 'Try a delivery that failed (or is waiting) again now',
        params: webhookDeliveryParamsSchema,
        response: { 200: webhookDeliveryAnswerSchema },
      },
    },
    async (request) => results(await service.retry(ctx, requireActor(request), request.params.id)),
  );
};
