import { describe, expect, it } from 'vitest';
import { auditRouteOf, operationIdOf } from './operations.ts';

describe('operation ids and targets read from a route (issue 33)', () => {
  it('makes the operation id of a method and a path, in either way of writing parameters', () => {
    expect(operationIdOf('POST', '/api/login')).toBe('postLogin');
    expect(operationIdOf('POST', '/api/accounts/{id}/userAccess/{userId}')).toBe(
      'postAccountsByIdUserAccessByUserId',
    );
    expect(operationIdOf('POST', '/api/accounts/:id/userAccess/:userId')).toBe(
      'postAccountsByIdUserAccessByUserId',
    );
    expect(operationIdOf('DELETE', '/api/managers/{type}/{userId}')).toBe('deleteManagersByTypeByUserId');
    expect(operationIdOf('GET', '/config/apiVersions.json')).toBe('getConfigApiVersionsJson');
    expect(operationIdOf('GET', '/api/me')).toBe('getMe');
  });

  it('reads the entities a path names, and what a POST to a collection makes', () => {
    expect(auditRouteOf('POST', '/api/accounts/:id/invites/:inviteId/trash', { id: 3, inviteId: 9 })).toEqual(
      {
        places: [
          { type: 'account', id: '3' },
          { type: 'invite', id: '9' },
        ],
        creates: null,
        own: false,
      },
    );
    expect(auditRouteOf('POST', '/api/accounts/:id/invites', { id: 3 })).toMatchObject({ creates: 'invite' });
    expect(auditRouteOf('POST', '/api/sites', {})).toEqual({ places: [], creates: 'site', own: false });
    expect(auditRouteOf('DELETE', '/api/managers/:type/:userId', { type: 'site', userId: 4 }).places).toEqual(
      [{ type: 'user', id: '4' }],
    );
    expect(
      auditRouteOf('POST', '/api/edgeServers/:id/actions/:action', { id: 2, action: 'restart' }).places,
    ).toEqual([{ type: 'edgeServer', id: '2' }]);
    expect(auditRouteOf('POST', '/api/me/apiTokens/:id/trash', { id: 5 })).toEqual({
      places: [{ type: 'apiToken', id: '5' }],
      creates: null,
      own: true,
    });
  });

  it('never takes a secret in a path for an id', () => {
    expect(auditRouteOf('POST', '/api/invitations/:token/accept', { token: 'abcdef' }).places).toEqual([]);
  });
});
