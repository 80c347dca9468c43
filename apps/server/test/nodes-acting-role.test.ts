import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';
import { listNodes, makeNodesWorld, type NodesWorld, names, postNodes } from './nodes-world.ts';

describe(`media tree as another role (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
  });
  afterAll(() => t.close());

  const launch = (body: object) => w.accountManager.client.post(`/api/accounts/${w.account.id}/launch`, body);
  const createFolder = (name: string) =>
    postNodes(w.accountManager.client, '/api/nodes', { parentPath: w.p('/Sport'), type: 'folder', name });

  it("acts as a Viewer: the Viewer's tree, no writes, hidden folders not found", async () => {
    expect((await launch({ roleId: w.roles.viewer.id })).status).toBe(200);
    const root = await listNodes(w.accountManager.client, { path: w.p() });
    expect(root.body.results.actingRole).toEqual({ id: w.roles.viewer.id, name: 'Viewer' });
    expect(names(root.body.results.children)).not.toContain('Secret');
    expect(root.body.results.node.access).toEqual({ canEdit: false, canLog: false, canManage: false });
    expect((await createFolder('As viewer')).status).toBe(403);
    expect((await listNodes(w.accountManager.client, { path: w.p('/Secret') })).status).toBe(404);
    const permissions = await postNodes(w.accountManager.client, '/api/nodes', {
      path: w.p('/Sport'),
      permissions: [],
    });
    expect(permissions.status).toBe(403);
  });

  it('acts as an Editor: view-only folders for Editors apply', async () => {
    // Acting as a Viewer leaves no right to pick another role: back to its own first.
    expect((await launch({})).status).toBe(200);
    expect((await launch({ roleId: w.roles.editor.id })).status).toBe(200);
    const locked = await listNodes(w.accountManager.client, { path: w.p('/Locked') });
    expect(locked.body.results.actingRole?.name).toBe('Editor');
    expect(locked.body.results.node.access.canEdit).toBe(false);
    expect((await createFolder('As editor')).status).toBe(200);
  });

  it('goes back to its own rights with launch {}', async () => {
    expect((await launch({})).status).toBe(200);
    const root = await listNodes(w.accountManager.client, { path: w.p() });
    expect(root.body.results.actingRole).toBeNull();
    expect(names(root.body.results.children)).toContain('Secret');
    expect(root.body.results.node.access).toEqual({ canEdit: true, canLog: true, canManage: true });
    expect((await createFolder('As myself')).status).toBe(200);
  });

  it('acting in one account leaves another untouched', async () => {
    await launch({});
    expect((await launch({ roleId: w.roles.viewer.id })).status).toBe(200);
    // The site manager has no role in the account and acts as nobody: managers are never limited.
    const site = await listNodes(w.siteManager.client, { path: w.p('/Secret') });
    expect(site.status).toBe(200);
    expect(site.body.results.actingRole).toBeNull();
    await launch({});
  });
});
