import {
  CHANNELS,
  msgOutboundRefused,
  msgOutboundScheme,
  newButtonBody,
  type OutboundRule,
  type PublishButton,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishButtons, publishes } from '../src/modules/publishing/tables.ts';
import { buildTestApp, type ErrorBody, type Results, type TestApp, testDriver } from './harness.ts';
import {
  addPublishes,
  buttonBody,
  createButton,
  ctxUrl,
  listButtons,
  makePublishingWorld,
  type PublishingWorld,
  publishedOn,
} from './publishing-world.ts';

describe(`publishing buttons (${testDriver()})`, () => {
  let t: TestApp;
  let w: PublishingWorld;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makePublishingWorld(t);
  });
  afterAll(() => t.close());

  const buttonCount = async () => (await t.ctx.db.select().from(publishButtons)).length;

  it('creates a button of an account, answers its id, lists it with its phases and announces it', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('To archive'),
    );
    const list = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    expect(list.channel).toBe(CHANNELS.publishButtons('accounts', w.account.id));
    const button = list.results.find((b) => b.id === id) as PublishButton;
    expect(button).toMatchObject({
      name: 'To archive',
      accountId: w.account.id,
      siteId: null,
      enabled: true,
      keepFor: null,
      location: { type: 'cloud', id: null },
      complicated: false,
      bad: false,
      problems: [],
    });
    expect(button.phases[0]?.phase.network.nodes.map((node) => node.moduleId)).toEqual([
      'source-media',
      'folder-export',
      'as-is',
    ]);
    expect(await publishedOn(t, CHANNELS.publishButtons('accounts', w.account.id))).toContain(id);
  });

  it('lists by name, leaves the phases out without phases=expand, and adds the site buttons with includeAll', async () => {
    await createButton(w.siteManager.client, 'sites', w.site.id, buttonBody('Site wide'));
    await createButton(w.accountManager.client, 'accounts', w.account.id, buttonBody('a first'));
    const own = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    const names = own.results.map((b) => b.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).not.toContain('Site wide');
    const all = await listButtons(w.accountManager.client, 'accounts', w.account.id, '&includeAll=1');
    expect(all.results.map((b) => b.name)).toContain('Site wide');
    const summary = await w.accountManager.client.get<{ results: PublishButton[] }>(
      ctxUrl('accounts', w.account.id, 'publishButtons'),
    );
    expect(summary.status).toBe(200);
    expect(summary.body.results.every((b) => b.phases.length === 0 && b.problems.length === 0)).toBe(true);
    const site = await listButtons(w.siteManager.client, 'sites', w.site.id);
    expect(site.results.map((b) => b.name)).toEqual(['Site wide']);
  });

  it('flags a complicated button (more than one phase)', async () => {
    const body = buttonBody('Two phases');
    const phase = body.phases[0];
    const id = await createButton(w.accountManager.client, 'accounts', w.account.id, {
      ...body,
      phases: [phase, { ...phase, phase: { ...phase?.phase, id: 1 } }],
    });
    const list = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    expect(list.results.find((b) => b.id === id)).toMatchObject({ complicated: true, bad: false });
  });

  it("refuses a bad network with the spec's problems, and writes nothing", async () => {
    const body = buttonBody('Broken');
    const phase = body.phases[0] as (typeof body.phases)[number];
    phase.phase.network.connections = [[0, 2]];
    const before = await buttonCount();
    const response = await w.accountManager.client.post<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishButtons'),
      body,
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'bad_network',
      message: 'Too few inputs for Export to folder; As is must go to a destination',
    });
    phase.phase.network.nodes.push({ nodeLocalId: 7, moduleId: 'nope', options: {} });
    phase.phase.network.connections = [
      [0, 2],
      [2, 1],
      [9, 1],
    ];
    const again = await w.accountManager.client.post<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishButtons'),
      body,
    );
    expect(again.body.error.message).toBe('Hanging connection 9-1; Invalid module nope');
    expect(await buttonCount()).toBe(before);
  });

  it('refuses a keep-for that is not a choice, a transient field, an unknown role, a foreign icon or edge', async () => {
    const url = ctxUrl('accounts', w.account.id, 'publishButtons');
    const before = await buttonCount();
    const keepFor = await w.accountManager.client.post<ErrorBody>(url, buttonBody('K', { keepFor: 86_400 }));
    expect(keepFor.status).toBe(400);
    expect(keepFor.body.error.fields?.keepFor).toBe('Keep for is Ever or 2 to 30 days');
    const deleting = await w.accountManager.client.post<ErrorBody>(url, {
      ...buttonBody('D'),
      deleting: true,
    });
    expect(deleting.status).toBe(400);
    expect(deleting.body.error.fields?.deleting).toBe('Unknown field');
    const role = await w.accountManager.client.post<ErrorBody>(
      url,
      buttonBody('R', { restrictions: [{ roleId: 999_999, roleName: 'Ghost', allow: false }] }),
    );
    expect(role.status).toBe(400);
    expect(role.body.error.message).toBe('Role 999999 is not a role of this site');
    const icon = await w.accountManager.client.post<ErrorBody>(url, buttonBody('I', { iconId: 999_999 }));
    expect(icon.status).toBe(400);
    expect(icon.body.error.message).toBe('The icon is not one of this context');
    const edge = await w.accountManager.client.post<ErrorBody>(
      url,
      buttonBody('E', { location: { type: 'edge', id: w.otherEdge.id } }),
    );
    expect(edge.status).toBe(400);
    expect(edge.body.error.message).toBe(`Edge server ${w.otherEdge.id} is not an edge server of this site`);
    expect(await buttonCount()).toBe(before);
    const onEdge = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('On the edge', { location: { type: 'edge', id: w.liveEdge.id }, keepFor: 2 * 86_400 }),
    );
    const list = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    expect(list.results.find((b) => b.id === onEdge)).toMatchObject({
      location: { type: 'edge', id: w.liveEdge.id },
      keepFor: 172_800,
    });
  });

  it('answers 401 without a session, 403 to an Editor creating and to an account manager on the site, 404 to outsiders', async () => {
    const anonymous = await t.client().get<ErrorBody>(ctxUrl('accounts', w.account.id, 'publishButtons'));
    expect(anonymous.status).toBe(401);
    const editor = await w.editor.client.post<ErrorBody>(
      ctxUrl('accounts', w.account.id, 'publishButtons'),
      buttonBody('Nope'),
    );
    expect(editor.status).toBe(403);
    const onSite = await w.accountManager.client.post<ErrorBody>(
      ctxUrl('sites', w.site.id, 'publishButtons'),
      buttonBody('Nope'),
    );
    expect(onSite.status).toBe(403);
    expect((await w.accountManager.client.get(ctxUrl('sites', w.site.id, 'publishButtons'))).status).toBe(
      403,
    );
    expect((await w.outsider.client.get(ctxUrl('accounts', w.account.id, 'publishButtons'))).status).toBe(
      404,
    );
    expect((await w.outsider.client.get(ctxUrl('sites', w.site.id, 'publishButtons'))).status).toBe(404);
    expect(
      (await w.accountManager.client.get(ctxUrl('accounts', w.otherAccount.id, 'publishButtons'))).status,
    ).toBe(404);
    expect((await w.admin.client.get(ctxUrl('accounts', 999_999, 'publishButtons'))).status).toBe(404);
    expect((await w.resellerManager.client.get(ctxUrl('sites', w.site.id, 'publishButtons'))).status).toBe(
      200,
    );
  });

  it('refuses to save a destination aimed at an address publishing may not reach, on its field, and writes nothing', async () => {
    const aimed = (moduleId: string, options: Record<string, unknown>) => {
      const body = {
        ...newButtonBody({
          name: `Aimed ${moduleId}`,
          processModuleId: 'as-is',
          destinationModuleId: moduleId,
        }),
      };
      for (const node of body.phases[0]?.phase.network.nodes ?? [])
        if (node.moduleId === moduleId) node.options = options;
      return body;
    };
    const refused = (address: string, rule: OutboundRule) => msgOutboundRefused(address, rule, 'publishing');
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'webhook',
        { url: 'http://169.254.169.254/latest/meta-data/iam/' },
        'url',
        refused('169.254.169.254', 'link-local'),
      ],
      [
        'webhook',
        { url: 'http://metadata.google.internal/computeMetadata/v1/' },
        'url',
        refused('metadata.google.internal', 'cloud-metadata'),
      ],
      [
        'webhook',
        { url: 'http://[fd00:ec2::254]/latest/' },
        'url',
        refused('fd00:ec2::254', 'cloud-metadata'),
      ],
      ['webhook', { url: 'http://0.0.0.0:5432/' }, 'url', refused('0.0.0.0', 'unspecified')],
      ['webhook', { url: 'http://2130706433:8081/' }, 'url', refused('127.0.0.1', 'loopback')],
      ['webhook', { url: 'file:///etc/passwd' }, 'url', msgOutboundScheme('file:')],
      ['webhook', { url: 'gopher://127.0.0.1:6379/_INFO' }, 'url', msgOutboundScheme('gopher:')],
      ['ftp', { host: '127.0.0.1:5432', username: 'u' }, 'host', refused('127.0.0.1', 'loopback')],
      [
        'sftp',
        { host: '[::ffff:169.254.169.254]', username: 'u' },
        'host',
        refused('::ffff:169.254.169.254', 'link-local'),
      ],
      [
        's3',
        { bucket: 'b', endpoint: 'http://[::1]:9000', accessKeyId: 'k' },
        'endpoint',
        refused('::1', 'loopback'),
      ],
    ];
    const before = await buttonCount();
    for (const [moduleId, options, field, message] of cases) {
      const response = await w.accountManager.client.post<ErrorBody>(
        ctxUrl('accounts', w.account.id, 'publishButtons'),
        aimed(moduleId, options),
      );
      expect(response.status, JSON.stringify(options)).toBe(400);
      expect(response.body.error).toMatchObject({ message, fields: { [field]: message } });
    }
    expect(await buttonCount()).toBe(before);

    // Public and private addresses are fine (media companies deliver to their own networks), unless
    // OUTBOUND_DENY_PRIVATE refuses the private ones.
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      aimed('ftp', { host: '10.20.30.40', username: 'u' }),
    );
    const update = (host: string) =>
      w.accountManager.client.post<ErrorBody>(`/api/publishButtons/${id}`, {
        ...aimed('ftp', { host, username: 'u' }),
        id,
      });
    expect((await update('203.0.113.10:2121')).status).toBe(200);
    t.config.outbound.denyPrivate = true;
    try {
      const privateAddress = await update('192.168.1.20');
      expect(privateAddress.status).toBe(400);
      expect(privateAddress.body.error.fields).toEqual({ host: refused('192.168.1.20', 'private') });
    } finally {
      t.config.outbound.denyPrivate = false;
    }
  });

  it('saves the whole button, renames it, disables it; a body id must be the address', async () => {
    const id = await createButton(w.accountManager.client, 'accounts', w.account.id, buttonBody('Editable'));
    const whole = await w.accountManager.client.post<Results<PublishButton>>(`/api/publishButtons/${id}`, {
      ...buttonBody('Edited', { description: 'Now described', keepFor: 30 * 86_400 }),
      id,
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.results).toMatchObject({
      id,
      name: 'Edited',
      description: 'Now described',
      keepFor: 2_592_000,
    });
    const renamed = await w.accountManager.client.post<Results<PublishButton>>(`/api/publishButtons/${id}`, {
      id,
      name: 'Renamed',
    });
    expect(renamed.body.results).toMatchObject({ name: 'Renamed', description: 'Now described' });
    const disabled = await w.accountManager.client.post<Results<PublishButton>>(`/api/publishButtons/${id}`, {
      enabled: false,
    });
    expect(disabled.body.results.enabled).toBe(false);
    const mismatch = await w.accountManager.client.post<ErrorBody>(`/api/publishButtons/${id}`, {
      id: id + 1000,
      name: 'Other',
    });
    expect(mismatch.status).toBe(400);
    const bad = await w.accountManager.client.post<ErrorBody>(`/api/publishButtons/${id}`, {
      enabled: false,
      saving: true,
    });
    expect(bad.status).toBe(400);
    const badNetwork = buttonBody('Broken again');
    (badNetwork.phases[0] as (typeof badNetwork.phases)[number]).phase.network.connections = [];
    const refused = await w.accountManager.client.post<ErrorBody>(`/api/publishButtons/${id}`, badNetwork);
    expect(refused.body.error.code).toBe('bad_network');
    const [row] = await t.ctx.db.select().from(publishButtons).where(eq(publishButtons.id, id));
    expect(row?.name).toBe('Renamed');
    expect((await w.editor.client.post(`/api/publishButtons/${id}`, { enabled: true })).status).toBe(403);
    expect((await w.outsider.client.post(`/api/publishButtons/${id}`, { enabled: true })).status).toBe(404);
    expect((await w.admin.client.post('/api/publishButtons/999999', { enabled: true })).status).toBe(404);
  });

  it('hides disabled buttons from account users but not from managers', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Switched off', { enabled: false }),
    );
    expect(
      (await listButtons(w.editor.client, 'accounts', w.account.id)).results.map((b) => b.id),
    ).not.toContain(id);
    expect(
      (await listButtons(w.accountManager.client, 'accounts', w.account.id)).results.map((b) => b.id),
    ).toContain(id);
  });

  it('counts published items, and trash sends them to the Recycle Bin with the button', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('With items'),
    );
    await addPublishes(t, id, w.account.id, 3);
    const status = await w.accountManager.client.get<Results<{ numberOfPublishedItems: number }>>(
      `/api/publishButtons/${id}/status`,
    );
    expect(status.body.results).toEqual({ numberOfPublishedItems: 3 });
    expect((await w.editor.client.get(`/api/publishButtons/${id}/status`)).status).toBe(403);
    expect((await w.editor.client.post(`/api/publishButtons/${id}/trash`)).status).toBe(403);
    const trashed = await w.accountManager.client.post(`/api/publishButtons/${id}/trash`);
    expect(trashed.status).toBe(200);
    const items = await t.ctx.db.select().from(publishes).where(eq(publishes.buttonId, id));
    expect(items).toHaveLength(3);
    expect(items.every((item) => item.deletedAt !== null)).toBe(true);
    const [row] = await t.ctx.db.select().from(publishButtons).where(eq(publishButtons.id, id));
    expect(row?.deletedAt).not.toBeNull();
    const list = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    expect(list.results.map((b) => b.id)).not.toContain(id);
    expect((await w.accountManager.client.get(`/api/publishButtons/${id}/status`)).status).toBe(404);
    expect((await w.accountManager.client.post(`/api/publishButtons/${id}/trash`)).status).toBe(404);
  });

  it('counts only items not in the Recycle Bin', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Partly binned'),
    );
    await addPublishes(t, id, w.account.id, 2);
    const [first] = await t.ctx.db.select().from(publishes).where(eq(publishes.buttonId, id));
    await t.ctx.db
      .update(publishes)
      .set({ deletedAt: new Date() })
      .where(eq(publishes.id, first?.id as number));
    const status = await w.accountManager.client.get<Results<{ numberOfPublishedItems: number }>>(
      `/api/publishButtons/${id}/status`,
    );
    expect(status.body.results.numberOfPublishedItems).toBe(1);
  });
});
