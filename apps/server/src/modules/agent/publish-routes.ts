import {
  agentPublishesQuerySchema,
  agentPublishProgressSchema,
  agentPublishReportAnswerSchema,
  agentPublishSchema,
  idParamSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { noteAudit } from '../../platform/http/audit.ts';
import { results } from '../../platform/http/envelope.ts';
import { contentRequestOf, sendStoredContent } from '../../platform/http/stored-content.ts';
import * as publishing from '../publishing/service.ts';
import type { AgentEdge } from './service.ts';

/**
 * The agent's side of publishing (DESIGN "Publishing": a publish runs where its button's location says): the
 * publishes handed over to its edge server, claiming one, its source file, and its progress. Registered in
 * the agent scope, so the edge server is the one the token names.
 */
export const registerAgentPublishRoutes = (
  scope: FastifyInstance,
  ctx: AppContext,
  edgeOf: (request: FastifyRequest) => AgentEdge,
) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['edge agent'];
  app.get(
    '/publishes',
    {
      schema: {
        tags,
        description:
          "The publishes this edge server's agent carries out: its unfinished ones, then the queued",
        querystring: agentPublishesQuerySchema,
        response: { 200: resultsOf(z.array(agentPublishSchema)) },
      },
    },
    async (request) =>
      results(await publishing.listEdgePublishes({ ctx, edge: edgeOf(request), limit: request.query.limit })),
  );
  app.post(
    '/publishes/:id/claim',
    {
      schema: {
        tags,
        description: 'The agent starts a publish (queued → running); its own running one starts again',
        params: idParamSchema,
        response: { 200: resultsOf(agentPublishSchema) },
      },
    },
    async (request) =>
      results(await publishing.claimEdgePublish({ ctx, edge: edgeOf(request), id: request.params.id })),
  );
  app.get(
    '/publishes/:id/source',
    {
      schema: {
        tags,
        description: "The published node's playable file (the one a cloud run uses), with byte ranges",
        params: idParamSchema,
      },
    },
    async (request, reply) =>
      sendStoredContent(
        reply,
        await publishing.edgePublishSource({
          ctx,
          edge: edgeOf(request),
          id: request.params.id,
          request: contentRequestOf(request),
        }),
      ),
  );
  app.post(
    '/publishes/:id',
    {
      schema: {
        tags,
        description:
          'Progress and log lines of a running publish, then done (with where the result went) or failed',
        params: idParamSchema,
        body: agentPublishProgressSchema,
        response: { 200: resultsOf(agentPublishReportAnswerSchema) },
      },
    },
    async (request) => {
      // Progress and log lines of a running publish: no audit row; done or failed writes one.
      if (!request.body.status) noteAudit(request, { routine: true });
      return results(
        await publishing.reportEdgePublish({
          ctx,
          edge: edgeOf(request),
          id: request.params.id,
          report: request.body,
        }),
      );
    },
  );
};
