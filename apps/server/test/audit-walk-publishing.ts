import { agentCall, keep, type Made, multipart, type WalkStep, type WalkWorld } from './audit-walk-world.ts';
import type { TestApp } from './harness.ts';
import { buttonBody } from './publishing-world.ts';

/** Publishing (buttons, icons, modules, published items) and the edge server's agent. */
export const PUBLISHING_STEPS: WalkStep[] = [
  {
    op: 'postPublishesByIdRepublish',
    run: (_t, w) => w.admin.client.post(`/api/publishes/${w.published.failed}/republish`, {}),
  },
  {
    op: 'postPublishesByIdHelp',
    run: (_t, w) => w.admin.client.post(`/api/publishes/${w.published.failed}/help`, { options: {} }),
  },
  {
    op: 'postAccountsByIdPublishButtons',
    run: (_t, w) =>
      w.admin.client.post(`/api/accounts/${w.account.id}/publishButtons`, buttonBody('Walk button b')),
  },
  {
    op: 'postPublishButtonsById',
    run: (_t, w) => w.admin.client.post(`/api/publishButtons/${w.button}`, buttonBody('Walk button 2')),
  },
  {
    op: 'postPublishButtonsByIdRoleRestrictions',
    run: (_t, w) =>
      w.admin.client.post(`/api/publishButtons/${w.button}/roleRestrictions`, [
        { roleId: w.editorRoleId, roleName: 'Editor', allow: true },
      ]),
  },
  {
    op: 'postSitesByIdPublishButtons',
    run: async (_t, w, made) =>
      keep(
        made,
        'siteButton',
        await w.admin.client.post(`/api/sites/${w.site.id}/publishButtons`, buttonBody('Walk site button')),
      ),
  },
  {
    op: 'postPublishButtonsByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/publishButtons/${made.siteButton}/trash`),
  },
  {
    op: 'postPublishButtonsByIdRestore',
    run: (_t, w, made) => w.admin.client.post(`/api/publishButtons/${made.siteButton}/restore`),
  },
  {
    op: 'postPublishButtonsByIdPurge',
    prepare: async (_t, w, made) => {
      await w.admin.client.post(`/api/publishButtons/${made.siteButton}/trash`);
    },
    run: (_t, w, made) => w.admin.client.post(`/api/publishButtons/${made.siteButton}/purge`),
  },
  ...(['accounts', 'sites'] as const).flatMap((scope) => [
    {
      op: `post${scope === 'accounts' ? 'Accounts' : 'Sites'}ByIdPublishIcons`,
      run: async (_t: TestApp, w: WalkWorld, made: Made) =>
        keep(
          made,
          `${scope}Icon`,
          await multipart(w, `/api/${scope}/${scope === 'sites' ? w.site.id : w.account.id}/publishIcons`, {
            fileName: 'icon.png',
            content: w.png,
            type: 'image/png',
          }),
        ),
    },
    {
      op: `post${scope === 'accounts' ? 'Accounts' : 'Sites'}ByIdPublishModulesByModuleIdActionsByAction`,
      run: (_t: TestApp, w: WalkWorld) =>
        w.admin.client.post(
          `/api/${scope}/${scope === 'sites' ? w.site.id : w.account.id}/publishModules/folder-export/actions/check`,
          { options: { folder: '/walk' }, data: { state: null } },
        ),
    },
  ]),
  {
    op: 'postPublishIconsByIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/publishIcons/${made.accountsIcon}/trash`),
  },
  // The edge server's agent.
  {
    op: 'postAgentCommandsById',
    run: (t, w) => agentCall(t, { url: `/api/agent/commands/${w.command}`, body: { result: { load: 1 } } }),
  },
  {
    op: 'postAgentQueueItems',
    run: (t, w) =>
      agentCall(t, {
        url: '/api/agent/queueItems',
        body: { endpointId: w.fileEndpoint.id, queueId: 'walk-agent', sourceName: 'walk.mov' },
      }),
  },
  {
    op: 'postAgentQueueItemsById',
    run: (t, w) =>
      agentCall(t, {
        url: `/api/agent/queueItems/${w.items.ingesting.id}`,
        // A new status: progress alone writes no row (a routine report).
        body: { status: 'failed', error: 'Walked' },
      }),
  },
  {
    op: 'putAgentQueueItemsByIdThumbnail',
    run: (t, w) =>
      agentCall(t, {
        method: 'PUT',
        url: `/api/agent/queueItems/${w.items.queued.id}/thumbnail`,
        body: w.jpeg,
        headers: { 'content-type': 'image/jpeg' },
      }),
  },
  {
    op: 'postAgentUnprocessedFiles',
    run: (t, w) =>
      agentCall(t, {
        url: '/api/agent/unprocessedFiles',
        body: { endpointId: w.fileEndpoint.id, path: 'walk/odd.mxf' },
      }),
  },
  {
    op: 'postAgentPublishesByIdClaim',
    run: (t, w) => agentCall(t, { url: `/api/agent/publishes/${w.published.onEdge}/claim` }),
  },
  {
    op: 'postAgentPublishesById',
    run: (t, w) =>
      agentCall(t, {
        url: `/api/agent/publishes/${w.published.onEdge}`,
        body: { status: 'failed', error: 'Walked' },
      }),
  },
];
