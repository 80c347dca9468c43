import {
  acknowledgeRequestSchema,
  acknowledgeResponseSchema,
  CHANNELS,
  collectionOf,
  idParamSchema,
  notificationParamsSchema,
  notificationSettingsResponseSchema,
  notificationSettingsUpdateSchema,
  pageQuerySchema,
  userNotificationSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerNotificationRoutes = (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];

  app.get(
    '/users/:id/notifications',
    {
      schema: {
        tags,
        description: "The user's notifications not yet acknowledged, newest first",
        params: idParamSchema,
        querystring: pageQuerySchema,
        response: { 200: collectionOf(userNotificationSchema) },
      },
    },
    async (request) => {
      const page = await service.listNotifications({
        ctx,
        actor: requireActor(request),
        userId: request.params.id,
        ...request.query,
      });
      return collection(page.items, page.total, CHANNELS.userNotifications(request.params.id));
    },
  );
  app.post(
    '/users/:id/notifications/:notificationId',
    {
      schema: {
        tags,
        description: 'Acknowledge a notification (it leaves the list)',
        params: notificationParamsSchema,
        body: acknowledgeRequestSchema,
        response: { 200: acknowledgeResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.acknowledgeNotification({
          ctx,
          actor: requireActor(request),
          userId: request.params.id,
          notificationId: request.params.notificationId,
        }),
      ),
  );
  app.get(
    '/users/:id/notificationSettings',
    {
      schema: {
        tags,
        description: 'Notification settings (type email)',
        params: idParamSchema,
        response: { 200: notificationSettingsResponseSchema },
      },
    },
    async (request) =>
      results(await service.getSettings({ ctx, actor: requireActor(request), userId: request.params.id })),
  );
  app.post(
    '/users/:id/notificationSettings',
    {
      schema: {
        tags,
        description: 'Turn notification types on ({add:[{type}]}) or off ({remove:[{type}]})',
        params: idParamSchema,
        body: notificationSettingsUpdateSchema,
        response: { 200: notificationSettingsResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.updateSettings({
          ctx,
          actor: requireActor(request),
          userId: request.params.id,
          change: request.body,
        }),
      ),
  );
};
