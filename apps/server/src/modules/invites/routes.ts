import {
  acceptingReadFields,
  accessPageQuerySchema,
  CHANNELS,
  collectionOf,
  idParamSchema,
  invitationAcceptSchema,
  invitationSchema,
  inviteCreateSchema,
  inviteParamsSchema,
  inviteSchema,
  inviteUpdateSchema,
  messageResponseSchema,
  okSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerInviteRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['invites'];

  app.get(
    '/accounts/:id/invites',
    {
      schema: {
        tags,
        description: "The account's open invitations, by email",
        params: idParamSchema,
        querystring: accessPageQuerySchema,
        response: { 200: collectionOf(inviteSchema) },
      },
    },
    async (request) => {
      const page = await service.listInvites({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
        ...request.query,
      });
      return collection(page.rows, page.total, CHANNELS.invites(request.params.id));
    },
  );
  app.post(
    '/accounts/:id/invites',
    {
      schema: {
        tags,
        description: 'Invite people by email with a role; each gets a mail to accept or register',
        params: idParamSchema,
        body: inviteCreateSchema,
        response: { 200: resultsOf(z.array(inviteSchema)) },
      },
    },
    async (request) =>
      results(
        await service.createInvites({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          invites: request.body.data,
        }),
      ),
  );
  app.post(
    '/accounts/:id/invites/:inviteId',
    {
      schema: {
        tags,
        description: "Change an invitation's role",
        params: inviteParamsSchema,
        body: acceptingReadFields(inviteUpdateSchema, inviteSchema),
        response: { 200: resultsOf(inviteSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateInvite({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          inviteId: request.params.inviteId,
          roleId: request.body.roleId,
        }),
      ),
  );
  app.post(
    '/accounts/:id/invites/:inviteId/trash',
    {
      schema: {
        tags,
        description: 'Withdraw an invitation (its link stops working)',
        params: inviteParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.trashInvite({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          inviteId: request.params.inviteId,
        }),
      ),
  );

  const tokenParams = z.object({ token: z.string().min(16).max(200) });
  app.get(
    '/invitations/:token',
    {
      schema: {
        tags,
        description: 'What an invitation link offers (no sign-in needed)',
        params: tokenParams,
        response: { 200: resultsOf(invitationSchema) },
      },
    },
    async (request) => results(await service.getInvitation({ ctx, token: request.params.token })),
  );
  app.post(
    '/invitations/:token/accept',
    {
      schema: {
        tags,
        description:
          'Accept an invitation: {} for an existing user, or {fullname, username?, newPassword} to register',
        params: tokenParams,
        body: invitationAcceptSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.acceptInvitation({
          ctx,
          token: request.params.token,
          registration:
            'newPassword' in request.body
              ? (request.body as { fullname: string; username?: string; newPassword: string })
              : undefined,
        }),
      ),
  );
};
