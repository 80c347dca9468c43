import {
  acceptingReadFields,
  accountCreateSchema,
  accountListItemSchema,
  accountSchema,
  accountsQuerySchema,
  accountUpdateSchema,
  CHANNELS,
  collectionOf,
  EDITOR_SKINS,
  EDITOR_VERSIONS,
  idParamSchema,
  LAUNCH_MODES,
  launchRequestSchema,
  launchResponseSchema,
  reservationSchema,
  resultsOf,
  workflowSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { JsonAnswers, LIST_PAGES_KEPT, sessionPageKey } from '../../platform/http/json-answers.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerAccountRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['accounts'];
  // The accounts list is read on every visit of the accounts page and the account pickers, and changes only
  // by an administrator's hand: a page is kept per session and query while the auth epoch stands still
  // (migration 0028 moves it for any change of an account, a site's name or place, a site group's reseller;
  // rights and sessions move it already).
  const accountPages = new JsonAnswers<string>(services.authEpoch, LIST_PAGES_KEPT);

  app.get(
    '/accounts',
    {
      schema: {
        tags,
        description: 'Accounts the user can see: paged, searchable (name, production name), sortable',
        querystring: accountsQuerySchema,
        response: { 200: collectionOf(accountListItemSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return accountPages.send(
        request,
        reply,
        sessionPageKey(actor, request.query),
        actor.generation,
        async () => {
          const page = await service.listAccounts({ ctx, actor, query: request.query });
          return collection(page.rows, page.total, CHANNELS.accounts);
        },
      );
    },
  );
  app.post(
    '/accounts',
    {
      schema: {
        tags,
        description:
          'Create ({name, siteId}), clone ({name, cloneFrom, siteId?}: settings, columns, workflows; not users or media), or reserve / release a name for a clone ({reserveKey|unreserveKey: true, name, cloneFrom})',
        body: accountCreateSchema,
        response: { 200: resultsOf(z.union([accountSchema, reservationSchema])) },
      },
    },
    async (request) =>
      results(await service.createAccount({ ctx, actor: requireActor(request), body: request.body })),
  );
  app.get(
    '/accounts/byName/:name',
    {
      schema: {
        tags,
        description: 'One account by its name (the account settings page link)',
        params: z.object({ name: z.string().min(1).max(200) }),
        response: { 200: resultsOf(accountSchema) },
      },
    },
    async (request) =>
      results(await service.getAccount({ ctx, actor: requireActor(request), name: request.params.name })),
  );
  app.get(
    '/accounts/:id',
    {
      schema: {
        tags,
        description: 'One account, with what the user may change on it',
        params: idParamSchema,
        response: { 200: resultsOf(accountSchema) },
      },
    },
    async (request) =>
      results(await service.getAccount({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/accounts/:id',
    {
      schema: {
        tags,
        description: 'Change account fields (the Account data and Account contact forms); rights per field',
        params: idParamSchema,
        body: acceptingReadFields(accountUpdateSchema, accountSchema),
        response: { 200: resultsOf(accountSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateAccount({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );
  app.get(
    '/accounts/:id/workflows',
    {
      schema: {
        tags,
        description: "The account's ingest workflows, by name",
        params: idParamSchema,
        response: { 200: collectionOf(workflowSchema) },
      },
    },
    async (request) => {
      const rows = await service.listWorkflows({ ctx, actor: requireActor(request), id: request.params.id });
      return collection(rows, rows.length, CHANNELS.accountWorkflows(request.params.id));
    },
  );
  app.post(
    '/accounts/:id/launch',
    {
      schema: {
        tags,
        description:
          'Enter the account (open the media manager), optionally as one of its roles; enforces the concurrent user limit',
        params: idParamSchema,
        body: launchRequestSchema,
        response: { 200: resultsOf(launchResponseSchema) },
      },
    },
    async (request) =>
      results(
        await service.launch({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          roleId: request.body.roleId,
        }),
      ),
  );

  const editorList = (path: string, values: readonly string[], description: string) =>
    app.get(
      path,
      { schema: { tags, description, response: { 200: resultsOf(z.array(z.string())) } } },
      async (request) => {
        requireActor(request);
        return results([...values]);
      },
    );
  editorList('/editor/versions', EDITOR_VERSIONS, 'Editor front-end versions an account can use');
  editorList('/editor/skins', EDITOR_SKINS, "Editor skins; 'By Site' follows the site");
  editorList('/editor/launchModes', LAUNCH_MODES, 'How the editor opens');
};
