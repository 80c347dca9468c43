import {
  idParamSchema,
  mfaCodeRequestSchema,
  mfaConfirmResponseSchema,
  mfaEnrolResponseSchema,
  mfaStatusResponseSchema,
  okSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerMfaRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['second factor'];
  const db = ctx.db;

  app.get(
    '/users/:id/mfa',
    {
      schema: {
        tags,
        description: 'Second-factor status of a user',
        params: idParamSchema,
        response: { 200: mfaStatusResponseSchema },
      },
    },
    async (request) =>
      results(await service.getStatus({ db, actor: requireActor(request), userId: request.params.id })),
  );
  app.post(
    '/users/:id/mfa/enrol',
    {
      schema: {
        tags,
        description: 'Start TOTP enrolment (own user)',
        params: idParamSchema,
        response: { 200: mfaEnrolResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.startEnrolment({
          db,
          config: ctx.config,
          actor: requireActor(request),
          userId: request.params.id,
        }),
      ),
  );
  app.post(
    '/users/:id/mfa/confirm',
    {
      schema: {
        tags,
        description: 'Confirm enrolment with a first code; answers the recovery codes, once',
        params: idParamSchema,
        body: mfaCodeRequestSchema,
        response: { 200: mfaConfirmResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.confirmEnrolment({
          db,
          config: ctx.config,
          actor: requireActor(request),
          userId: request.params.id,
          code: request.body.code,
        }),
      ),
  );
  app.post(
    '/users/:id/mfa/disable',
    {
      schema: {
        tags,
        description: 'Turn the second factor off with a code (own user)',
        params: idParamSchema,
        body: mfaCodeRequestSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.disable({
        db,
        config: ctx.config,
        actor: requireActor(request),
        userId: request.params.id,
        code: request.body.code,
      });
      return results({ ok: true as const });
    },
  );
  app.post(
    '/users/:id/mfa/reset',
    {
      schema: {
        tags,
        description: "Remove a user's second factor (administrators)",
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.reset({ ctx, db, actor: requireActor(request), userId: request.params.id });
      return results({ ok: true as const });
    },
  );
};
