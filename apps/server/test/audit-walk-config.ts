import { extraDataStoredKey } from '@media/contract';
import { call, type WalkStep, type WalkWorld } from './audit-walk-world.ts';
import type { TestApp } from './harness.ts';

/** Account, site and user configuration: extra data, columns, ingest formats, key maps and shortcuts. */
export const CONFIG_STEPS: WalkStep[] = [
  ...(['accounts', 'sites', 'users'] as const).map((scope) => ({
    op: `post${scope[0]?.toUpperCase()}${scope.slice(1)}ByIdExtraData`,
    run: (_t: TestApp, w: WalkWorld) =>
      w.admin.client.post(
        `/api/${scope}/${scope === 'users' ? w.person.id : scope === 'sites' ? w.site.id : w.account.id}/extraData`,
        {
          [extraDataStoredKey('desk')]: 'Walk desk',
        },
      ),
  })),
  ...(['accounts', 'sites'] as const).flatMap((scope) => [
    {
      op: `post${scope === 'accounts' ? 'Accounts' : 'Sites'}ByIdFileColumns`,
      run: (_t: TestApp, w: WalkWorld) =>
        w.admin.client.post(`/api/${scope}/${scope === 'sites' ? w.site.id : w.account.id}/fileColumns`, {
          columns: [],
          autoInherit: true,
        }),
    },
    {
      op: `post${scope === 'accounts' ? 'Accounts' : 'Sites'}ByIdLoggingColumns`,
      run: (_t: TestApp, w: WalkWorld) =>
        w.admin.client.post(`/api/${scope}/${scope === 'sites' ? w.site.id : w.account.id}/loggingColumns`, {
          columns: [],
          autoInherit: true,
        }),
    },
  ]),
  {
    op: 'postAccountsByIdIngestFormats',
    run: (_t, w) => w.admin.client.post(`/api/accounts/${w.account.id}/ingestFormats`, ['PAL_wide']),
  },
  {
    op: 'postKeyboardExpansions',
    run: (_t, w) =>
      w.admin.client.post('/api/keyboardExpansions', {
        accountId: w.account.id,
        name: 'Walk copy',
        cloneFromId: w.keyMap,
      }),
  },
  {
    op: 'putKeyshortcuts',
    run: (_t, w) =>
      call(w.admin.client, {
        method: 'PUT',
        url: '/api/keyshortcuts',
        body: [
          {
            id: w.keySets.changed,
            name: 'Walk set 2',
            parentId: null,
            visible: true,
            level: 'account',
            accountId: w.account.id,
          },
        ],
      }),
  },
  {
    op: 'putKeyshortcutsById',
    run: (_t, w) =>
      call(w.admin.client, {
        method: 'PUT',
        url: `/api/keyshortcuts/${w.keySets.changed}`,
        body: {
          name: 'Walk set 3',
          parentId: null,
          visible: true,
          level: 'account',
          accountId: w.account.id,
        },
      }),
  },
  {
    op: 'postDefaultKeyshortcuts',
    run: (_t, w) =>
      w.admin.client.post('/api/defaultKeyshortcuts', {
        data: { keyshortcutId: w.keySets.changed, accountId: w.account.id },
      }),
  },
  {
    op: 'postKeyshortcutsByIdTrash',
    run: (_t, w) => w.admin.client.post(`/api/keyshortcuts/${w.keySets.trashed}/trash`),
  },
];
