import net from 'node:net';
import {
  CLOUD_INSTALLED_MODULES,
  EDGE_INSTALLED_MODULES,
  FTP_TEST_PROBLEMS,
  PUBLISH_HELP_MESSAGES,
  PUBLISH_MODULES,
  type PublishLocation,
  type PublishModule,
  type ServerFormAction,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type ErrorBody,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';
import { ctxUrl, makePublishingWorld, type PublishingWorld } from './publishing-world.ts';

/** A port nothing listens on: one the system gave out and took back. */
const closedPort = async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

describe(`publishing modules, locations and module actions (${testDriver()})`, () => {
  let t: TestApp;
  let w: PublishingWorld;
  beforeAll(async () => {
    // The connection tests reach listeners on 127.0.0.1; the guard's own test turns loopback off again.
    t = await buildTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1' });
    w = await makePublishingWorld(t);
  });
  afterAll(() => t.close());

  const act = <T = Results<ServerFormAction>>(
    client: TestClient,
    moduleId: string,
    action: string,
    options: Record<string, unknown>,
    scope: 'accounts' | 'sites' = 'accounts',
    id = w.account.id,
  ) =>
    client.post<T>(ctxUrl(scope, id, `publishModules/${moduleId}/actions/${action}`), {
      options,
      data: { state: null },
    });

  it('lists the modules, of one type with ?kind=, to account users too', async () => {
    const all = await w.editor.client.get<Results<PublishModule[]>>(
      ctxUrl('accounts', w.account.id, 'publishModules'),
    );
    expect(all.status).toBe(200);
    expect(all.body.results.map((m) => m.id)).toEqual(PUBLISH_MODULES.map((m) => m.id));
    const destinations = await w.siteManager.client.get<Results<PublishModule[]>>(
      ctxUrl('sites', w.site.id, 'publishModules?kind=destination'),
    );
    expect(destinations.body.results.map((m) => m.id)).toEqual([
      'folder-export',
      'youtube',
      'ftp',
      'sftp',
      's3',
      'webhook',
    ]);
    const bad = await w.editor.client.get<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishModules?kind=nope'),
    );
    expect(bad.status).toBe(400);
    expect((await w.outsider.client.get(ctxUrl('accounts', w.account.id, 'publishModules'))).status).toBe(
      404,
    );
    expect((await t.client().get(ctxUrl('accounts', w.account.id, 'publishModules'))).status).toBe(401);
  });

  it("lists the cloud and the site's edge servers with their availability and installed modules", async () => {
    const response = await w.editor.client.get<Results<PublishLocation[]>>(
      ctxUrl('accounts', w.account.id, 'publishLocations'),
    );
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      { type: 'cloud', id: null, name: 'Cloud', available: true, modules: CLOUD_INSTALLED_MODULES },
      {
        type: 'edge',
        id: w.silentEdge.id,
        name: 'Archive edge',
        available: false,
        modules: EDGE_INSTALLED_MODULES,
      },
      {
        type: 'edge',
        id: w.liveEdge.id,
        name: 'Studio edge',
        available: true,
        modules: EDGE_INSTALLED_MODULES,
      },
    ]);
    const site = await w.siteManager.client.get<Results<PublishLocation[]>>(
      ctxUrl('sites', w.site.id, 'publishLocations'),
    );
    expect(site.body.results.map((l) => l.id)).toEqual([null, w.silentEdge.id, w.liveEdge.id]);
    const other = await w.admin.client.get<Results<PublishLocation[]>>(
      ctxUrl('accounts', w.otherAccount.id, 'publishLocations'),
    );
    expect(other.body.results.map((l) => l.id)).toEqual([null, w.otherEdge.id]);
    expect((await w.editor.client.get(ctxUrl('sites', w.site.id, 'publishLocations'))).status).toBe(403);
    expect((await w.outsider.client.get(ctxUrl('sites', w.site.id, 'publishLocations'))).status).toBe(404);
  });

  it('folder-export check normalises the folder and refuses one that climbs out', async () => {
    const checked = await act(w.accountManager.client, 'folder-export', 'check', {
      folder: '  exports//news/./today/ ',
    });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.results).toEqual({
      action: 'set-options',
      options: { folder: '/exports/news/today' },
    });
    const root = await act(w.accountManager.client, 'folder-export', 'check', { folder: '' });
    expect(root.body.results).toEqual({ action: 'set-options', options: { folder: '/' } });
    const climbing = await act(w.accountManager.client, 'folder-export', 'check', {
      folder: '/exports/../../etc',
    });
    expect(climbing.body.results).toEqual({
      action: 'display-message',
      type: 'danger',
      message: "A folder may not contain '..'",
    });
  });

  it('youtube connect says YouTube is not configured when the cloud has no client', async () => {
    const response = await act(w.accountManager.client, 'youtube', 'connect', {});
    expect(response.body.results).toEqual({
      action: 'display-message',
      type: 'danger',
      message: PUBLISH_HELP_MESSAGES.youtubeNotConfigured,
    });
  });

  it('ftp test connects to a listening server and reports a closed port', async () => {
    // Our probe hangs up at once, so the server's socket may see a reset: that is fine here.
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end('220 ready\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const reached = await act(w.accountManager.client, 'ftp', 'test', { host: `127.0.0.1:${port}` });
      expect(reached.body.results).toEqual({
        action: 'display-message',
        type: 'info',
        message: `Connected to 127.0.0.1:${port}`,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const closed = await closedPort();
    const refused = await act(w.accountManager.client, 'ftp', 'test', { host: `127.0.0.1:${closed}` });
    expect(refused.body.results).toEqual({
      action: 'display-message',
      type: 'danger',
      message: `Could not connect to 127.0.0.1:${closed} - ${FTP_TEST_PROBLEMS.connectionRefused}`,
    });
    const empty = await act(w.accountManager.client, 'ftp', 'test', { host: ' ' });
    expect(empty.body.results).toMatchObject({ action: 'display-message', type: 'danger' });
  });

  it('ftp test goes through the outbound guard and says no more than refused (not a port scanner)', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const refused = (shown: string) => ({
      action: 'display-message',
      type: 'danger',
      message: `Could not connect to ${shown} - ${FTP_TEST_PROBLEMS.refused}`,
    });
    t.config.outbound.allowLoopback = false;
    try {
      for (const [host, shown] of [
        [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
        // 2130706433 is 127.0.0.1 written as one decimal number.
        [`2130706433:${port}`, `2130706433:${port}`],
        [`[::ffff:127.0.0.1]:${port}`, `::ffff:127.0.0.1:${port}`],
        [`localhost:${port}`, `localhost:${port}`],
        ['169.254.169.254', '169.254.169.254:21'],
        ['metadata.google.internal', 'metadata.google.internal:21'],
        ['[fd00:ec2::254]', 'fd00:ec2::254:21'],
        ['0.0.0.0', '0.0.0.0:21'],
      ] as const) {
        const answer = await act(w.accountManager.client, 'ftp', 'test', { host });
        expect(answer.body.results, host).toEqual(refused(shown));
      }
    } finally {
      t.config.outbound.allowLoopback = true;
      await new Promise((resolve) => server.close(resolve));
    }
    expect(connections).toBe(0);
    // Loopback allowed still keeps this server's own port and its database out of reach.
    const ownPort = await act(w.accountManager.client, 'ftp', 'test', { host: `127.0.0.1:${t.config.port}` });
    expect(ownPort.body.results).toEqual(refused(`127.0.0.1:${t.config.port}`));
    if (t.config.databaseUrl) {
      const database = new URL(t.config.databaseUrl);
      const shown = `${database.hostname}:${database.port || 5432}`;
      const answer = await act(w.accountManager.client, 'ftp', 'test', { host: shown });
      expect(answer.body.results).toEqual(refused(shown));
    }
  });

  it('answers 404 for an unknown module, 400 for an unknown action or body, and only to managers', async () => {
    const unknownModule = await act<ErrorBody>(w.accountManager.client, 'teleport', 'check', {});
    expect(unknownModule.status).toBe(404);
    const unknownAction = await act<ErrorBody>(w.accountManager.client, 'youtube', 'explode', {});
    expect(unknownAction.status).toBe(400);
    expect(unknownAction.body.error.message).toBe('Unknown action explode');
    const badBody = await w.accountManager.client.post<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishModules/ftp/actions/test'),
      { options: {}, extra: 1 },
    );
    expect(badBody.status).toBe(400);
    expect((await act(w.editor.client, 'folder-export', 'check', { folder: '/a' })).status).toBe(403);
    expect(
      (await act(w.accountManager.client, 'folder-export', 'check', {}, 'sites', w.site.id)).status,
    ).toBe(403);
    expect((await act(w.outsider.client, 'folder-export', 'check', {})).status).toBe(404);
    expect(
      (await act(w.siteManager.client, 'folder-export', 'check', { folder: 'x' }, 'sites', w.site.id)).status,
    ).toBe(200);
  });
});
