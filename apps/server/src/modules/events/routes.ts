import {
  createEventResponseSchema,
  eventParamSchema,
  longPollResponseSchema,
  okSchema,
  subscribeRequestSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerEventRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['live updates'];
  // A stopping server answers its waiting long polls at once (empty), so that the pages poll again, on
  // another instance or after the restart, and the stop does not wait out their 25 s.
  const stopping = new AbortController();
  app.addHook('preClose', async () => stopping.abort());

  app.post(
    '/events/create',
    {
      schema: {
        tags,
        description: 'Create a live-update event id for this page',
        response: { 200: createEventResponseSchema },
      },
    },
    async (request) => results(await service.createEvent({ ctx, actor: requireActor(request) })),
  );
  app.post(
    '/events/:eventId/subscribe',
    {
      schema: {
        tags,
        description: 'Receive the changes of these channels on the event id',
        params: eventParamSchema,
        body: subscribeRequestSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.subscribe({
        ctx,
        actor: requireActor(request),
        eventId: request.params.eventId,
        channels: request.body.channels,
      });
      return results({ ok: true as const });
    },
  );
  app.get(
    '/events/:eventId/longpoll',
    {
      schema: {
        tags,
        description: 'Wait up to 25 s for changes; an empty list when none came',
        params: eventParamSchema,
        response: { 200: longPollResponseSchema },
      },
      // A long-poll is one request held open, not many; it must not use up the rate limit.
      config: { rateLimit: false },
      // Its answer is a few changed ids, sent the moment they come: compressing would only add work.
      compress: false,
      // Its answer is built by the service from stored changes; one change answers every waiting page at
      // once, and checking each answer against the schema was a seventh of that delivery's CPU (bench longpoll).
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request, reply) => {
      const aborted = new AbortController();
      // The response closes early only when the client went away.
      reply.raw.once('close', () => aborted.abort());
      return results(
        await service.longPoll({
          ctx,
          actor: requireActor(request),
          eventId: request.params.eventId,
          aborted: AbortSignal.any([aborted.signal, stopping.signal]),
        }),
      );
    },
  );
  app.post(
    '/events/:eventId/delete',
    {
      schema: {
        tags,
        description: 'Forget the event id (page unload)',
        params: eventParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.deleteEvent({ ctx, actor: requireActor(request), eventId: request.params.eventId });
      return results({ ok: true as const });
    },
  );
};
