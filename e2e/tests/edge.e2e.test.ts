import {
  ARRIVALS_MESSAGES,
  EDGE_MESSAGES,
  type EdgeServer,
  type Endpoint,
  MSG_INPUT_REQUIRED,
} from '@media/contract';
import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications, csrf } from '../api.ts';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  SCREENSHOTS,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

describe('edge servers, services and endpoints pages', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('creates, renames, configures and deletes an edge server with a service and an endpoint', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const me = await apiGet<{ id: number }>(context, `${base}/api/me`);

    // The navigation's 'Edge servers' (user section) leads to the user's own page.
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Edge servers' })
      .first()
      .click();
    await page.waitForURL(`${base}/users/${me.id}/edge`);
    await page.getByRole('heading', { name: 'Edge servers' }).waitFor();

    // A new card is a draft until created; the answer's agent token is shown once.
    await page.getByRole('button', { name: 'New edge server' }).click();
    const draft = page.getByRole('article', { name: 'New edge server' });
    await draft.getByLabel('Name').fill('Studio edge');
    await draft.getByRole('button', { name: 'Create' }).click();
    await page.getByText(EDGE_MESSAGES.edgeCreated('Studio edge')).waitFor();
    expect(await draft.count()).toBe(0);
    let card = page.getByRole('article', { name: 'Edge server Studio edge' });
    const token = card.getByTestId('agent-token');
    await token.waitFor();
    expect(((await token.getByTestId('agent-token-value').textContent()) ?? '').length).toBeGreaterThan(20);
    await token.getByText('shown only once').waitFor();
    const edge = (await apiGet<EdgeServer[]>(context, `${base}/api/users/${me.id}/edgeServers`)).find(
      (e) => e.name === 'Studio edge',
    ) as EdgeServer;
    expect(edge).toBeDefined();
    expect(edge).not.toHaveProperty('agentToken');

    // Rename: 61 characters are refused with the spec's message, a shorter name is saved.
    await card.getByRole('button', { name: 'Edit Edge server name' }).click();
    await card.getByLabel('Edge server name').fill('x'.repeat(61));
    await card.getByLabel('Edge server name').press('Enter');
    await page.getByText(EDGE_MESSAGES.nameTooLong, { exact: true }).first().waitFor();
    await card.getByRole('button', { name: 'Edit Edge server name' }).click();
    await card.getByLabel('Edge server name').fill('Studio edge A');
    await card.getByLabel('Edge server name').press('Enter');
    await page.getByText(EDGE_MESSAGES.edgeSaved('Studio edge A')).first().waitFor();
    card = page.getByRole('article', { name: 'Edge server Studio edge A' });
    await card.waitFor();

    // Advanced options open in place; a change marks the card unsaved until saved.
    const advanced = card.getByRole('button', { name: /Advanced options/ });
    expect(await advanced.getAttribute('aria-expanded')).toBe('false');
    await advanced.click();
    expect(await advanced.getAttribute('aria-expanded')).toBe('true');
    await card.getByLabel('Max concurrent ingests').fill('4');
    await choose(page, card.getByLabel('Log level'), 'debug');
    await card.getByTestId('unsaved-changes').waitFor();
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText(EDGE_MESSAGES.edgeSaved('Studio edge A')).count()).toBe(2);
    await expect.poll(() => card.getByTestId('unsaved-changes').count()).toBe(0);
    const saved = await apiGet<EdgeServer>(context, `${base}/api/edgeServers/${edge.id}`);
    expect(saved.advancedOptions).toMatchObject({ maxConcurrentIngests: 4, logLevel: 'debug' });
    await card.getByRole('button', { name: 'I have copied it' }).click();
    await closeNotifications(page);
    await screenshots(page, 'edge-servers');

    // Live updates: an edge created elsewhere shows without a reload; the address's type picks the list.
    const other = await context.request.post(`${base}/api/users/${me.id}/edgeServers`, {
      data: { name: 'Made elsewhere' },
      headers: await csrf(context),
    });
    expect(other.status()).toBe(200);
    const otherEdge = ((await other.json()) as { results: EdgeServer }).results;
    await page.getByRole('article', { name: 'Edge server Made elsewhere' }).waitFor();
    await page.locator('label', { hasText: 'Relay' }).click();
    await page.waitForURL(`${base}/users/${me.id}/edge?type=relay`);
    await page.getByTestId('edge-empty').waitFor();
    expect(await page.getByRole('article', { name: 'Edge server Made elsewhere' }).count()).toBe(0);
    await page.goto(`${base}/users/${me.id}/edge`);
    card = page.getByRole('article', { name: 'Edge server Studio edge A' });

    // Services: a card from a type, created with the type's default options.
    await card.getByRole('link', { name: 'Services (0)' }).click();
    await page.waitForURL(`${base}/edge/${edge.id}/services?context=user`);
    await page.getByTestId('services-empty').waitFor();
    // A draft from a template carries the template's name; discarding it removes the card.
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByRole('menuitem', { name: 'Watch folders' }).click();
    const fromTemplate = page.getByRole('article', { name: 'New service' });
    expect(await fromTemplate.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(
      'Watch folders',
    );
    await fromTemplate.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('services-empty').waitFor();
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByRole('menuitem', { name: 'File ingest' }).click();
    const newService = page.getByRole('article', { name: 'New service' });
    await newService.getByLabel('Name').fill('Incoming files');
    await newService.getByRole('button', { name: 'Create' }).click();
    await page.getByText(EDGE_MESSAGES.serviceCreated('Incoming files')).waitFor();
    const service = page.getByRole('article', { name: 'Service Incoming files' });
    await service.waitFor();
    await service.getByLabel('Files at a time').fill('3');
    await service.getByTestId('unsaved-changes').waitFor();
    await service.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(EDGE_MESSAGES.serviceSaved('Incoming files')).waitFor();
    await service.getByRole('button', { name: 'Restart' }).click();
    await page.getByText('Restart of "Incoming files" requested').waitFor();
    await closeNotifications(page);
    await screenshots(page, 'edge-services');

    // Endpoints: a source named after its type, edited and saved, then deleted after confirmation.
    await service.getByRole('link', { name: 'Endpoints (0)' }).click();
    await page.waitForURL(/\/edge\/\d+\/services\/\d+\/endpoints\?context=user/);
    await page.getByTestId('endpoints-empty').waitFor();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByRole('menuitem', { name: 'Local folder' }).click();
    const newEndpoint = page.getByRole('article', { name: 'New endpoint Local folder' });
    expect(await newEndpoint.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(
      'New Local folder',
    );
    await newEndpoint.getByLabel('Folder path').fill('/media/incoming');
    await choose(page, newEndpoint.getByLabel('Account', { exact: true }), 'evening-news');
    expect(await newEndpoint.getByLabel('Arrivals folder', { exact: true }).inputValue()).toBe(
      ARRIVALS_MESSAGES.unassigned,
    );
    expect(await newEndpoint.getByLabel('Workflow', { exact: true }).inputValue()).toBe(
      ARRIVALS_MESSAGES.noWorkflow,
    );
    await newEndpoint.getByRole('button', { name: 'Create' }).click();
    await page.getByText(ARRIVALS_MESSAGES.saved('New Local folder')).waitFor();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    let endpoint = page.getByRole('article', { name: 'Endpoint New Local folder' });
    await endpoint.waitFor();
    await endpoint.getByRole('textbox', { name: 'Name', exact: true }).fill('Camera cards');
    await endpoint.getByRole('switch', { name: 'Online' }).uncheck();
    await endpoint.getByTestId('unsaved-changes').waitFor();
    await endpoint.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(ARRIVALS_MESSAGES.saved('Camera cards')).waitFor();
    endpoint = page.getByRole('article', { name: 'Endpoint Camera cards' });
    await endpoint.waitFor();
    const endpointId = Number(/#\/(\d+)$/.exec(page.url())?.[1]);
    const stored = await apiGet<Endpoint>(context, `${base}/api/endpoints/${endpointId}`);
    expect(stored).toMatchObject({
      name: 'Camera cards',
      typeId: 'LocalFolderEndpoint',
      category: 'source',
      online: false,
      pendingSettings: false,
      arrivalsFolderId: null,
      workflowId: null,
    });
    expect(stored.options.path).toBe('/media/incoming');
    expect(stored.accountId).not.toBeNull();
    await closeNotifications(page);
    await screenshots(page, 'edge-endpoints');

    // '** Create New Folder **' asks for a name (required) and chooses the folder it makes (spec2 §3, §5).
    await choose(
      page,
      endpoint.getByLabel('Arrivals folder', { exact: true }),
      ARRIVALS_MESSAGES.createNewFolder,
    );
    const naming = page.getByRole('dialog', { name: 'New arrivals folder' });
    await naming.getByLabel('Name').fill('');
    await naming.getByRole('button', { name: 'Create' }).click();
    await naming.getByText(MSG_INPUT_REQUIRED).waitFor();
    await naming.getByLabel('Name').fill('Camera card rushes');
    await naming.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => endpoint.getByLabel('Arrivals folder', { exact: true }).inputValue())
      .toBe('Camera card rushes');
    await endpoint.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () => (await apiGet<Endpoint>(context, `${base}/api/endpoints/${endpointId}`)).arrivalsFolderId,
      )
      .not.toBeNull();
    await closeNotifications(page);

    // The address's #/{endpointId} selects that card on a reload.
    // Disable and enable again: the status badge follows.
    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => endpoint.getByTestId('endpoint-status').textContent()).toBe('Disabled');
    await endpoint.getByRole('button', { name: 'Enable' }).click();
    // Enabled, but this edge server's agent has never called in: the badge says so, never 'OK'.
    await expect.poll(() => endpoint.getByTestId('endpoint-status').textContent()).toBe('Error');
    await page.reload();
    await page.locator('article[aria-current="true"]', { hasText: 'Camera cards' }).waitFor();

    await page
      .getByRole('article', { name: 'Endpoint Camera cards' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete endpoint' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByTestId('endpoints-empty').waitFor();
    expect((await context.request.get(`${base}/api/endpoints/${endpointId}`)).status()).toBe(404);

    // An edge page with another context is the spec's error.
    await page.goto(`${base}/edge/${edge.id}/services?context=nope`);
    await page.getByText(EDGE_MESSAGES.invalidContext('nope')).waitFor();

    // The cloud's list (administrators) links the edge's pages in the cloud context.
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Edge servers' })
      .last()
      .click();
    await page.waitForURL(`${base}/admin/edge`);
    const inCloud = page.getByRole('article', { name: 'Edge server Studio edge A' });
    await inCloud.waitFor();
    expect(await inCloud.getByRole('link', { name: 'Services (1)' }).getAttribute('href')).toBe(
      `/edge/${edge.id}/services?context=cloud`,
    );
    expect(await inCloud.getByRole('link', { name: 'Ingest queue' }).getAttribute('href')).toBe(
      `/edge/${edge.id}/ingestQueue?context=cloud#/forEdge/${edge.id}`,
    );
    expect(await inCloud.getByRole('link', { name: 'Unprocessed files' }).getAttribute('href')).toBe(
      `/edge/${edge.id}/unprocessedFiles?context=cloud`,
    );

    // Back on the user page: the token is not shown again; the edge is deleted after confirmation.
    await page.goto(`${base}/users/${me.id}/edge#/${edge.id}`);
    card = page.getByRole('article', { name: 'Edge server Studio edge A' });
    await card.waitFor();
    expect(await card.getAttribute('aria-current')).toBe('true');
    expect(await page.getByTestId('agent-token').count()).toBe(0);
    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete edge server' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText(EDGE_MESSAGES.edgeDeleted).waitFor();
    await expect.poll(() => card.count()).toBe(0);
    expect((await context.request.get(`${base}/api/edgeServers/${edge.id}`)).status()).toBe(404);
    await context.request.post(`${base}/api/edgeServers/${otherEdge.id}/trash`, {
      data: {},
      headers: await csrf(context),
    });
    await context.close();
  });

  it("offers an account's user who is not its manager only '** An account manager must set **' as arrivals folder", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const me = await apiGet<{ id: number }>(context, `${base}/api/me`);
    const created = await context.request.post(`${base}/api/users/${me.id}/edgeServers`, {
      data: { name: 'Editor edge' },
      headers: await csrf(context),
    });
    const edge = ((await created.json()) as { results: EdgeServer }).results;
    const service = await context.request.post(`${base}/api/edgeServers/${edge.id}/services`, {
      data: { edgeServerId: edge.id, name: 'Files', typeId: 'FileIngestService', options: {} },
      headers: await csrf(context),
    });
    expect(service.status()).toBe(200);
    const serviceId = ((await service.json()) as { results: { id: number } }).results.id;

    await page.goto(`${base}/edge/${edge.id}/services/${serviceId}/endpoints`);
    await page.getByTestId('endpoints-empty').waitFor();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByRole('menuitem', { name: 'Local folder' }).click();
    const draft = page.getByRole('article', { name: 'New endpoint Local folder' });
    await choose(page, draft.getByLabel('Account', { exact: true }), 'evening-news');
    await expect
      .poll(() => draft.getByLabel('Arrivals folder', { exact: true }).inputValue())
      .toBe(ARRIVALS_MESSAGES.managerMustSet);
    expect(await draft.getByLabel('Arrivals folder', { exact: true }).isDisabled()).toBe(true);
    await draft.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('endpoints-empty').waitFor();
    await context.close();
  });

  it("shows a site's edge servers to its manager, with the site context on their pages", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'london.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Edge servers' }).waitFor();
    // Only administrators see the cloud's list.
    expect(await nav.getByRole('link', { name: 'Edge servers' }).count()).toBe(1);
    // By its address, the cloud's list says it is not for this role, and offers nothing the server refuses.
    await page.goto(`${base}/admin/edge`);
    await page.getByTestId('not-for-role').getByText('Edge servers is not available to your role').waitFor();
    expect(await page.getByRole('button', { name: 'New edge server' }).count()).toBe(0);
    const sites = await apiGet<{ id: number; name: string }[]>(
      context,
      `${base}/api/sites?searchText=London`,
    );
    const london = sites.find((site) => site.name === 'London') as { id: number };

    await page.goto(`${base}/site/${london.id}`);
    const section = page.locator('section#edge-servers');
    const studio = section.getByRole('article', { name: 'Edge server London studio edge' });
    await studio.waitFor();
    // The sections above and below load at their own pace; click once the page has settled.
    await page.getByText('london.manager@demo.example').waitFor();
    await studio.getByRole('link', { name: /^Services/ }).click();
    await page.waitForURL(/\/edge\/\d+\/services\?context=site$/);
    await page.getByRole('article', { name: 'Service File ingest' }).waitFor();
    await page.getByRole('article', { name: 'Service Stream recorder' }).waitFor();
    // The trail leads back to the site's edge servers.
    expect(
      await page.getByRole('main').getByRole('link', { name: 'Edge servers' }).getAttribute('href'),
    ).toBe(`/site/${london.id}#edge-servers`);
    await page
      .getByRole('article', { name: 'Service File ingest' })
      .getByRole('link', { name: /^Endpoints/ })
      .click();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(page.url()).toContain('context=site');

    // The trail's 'Edge servers' leads back to the site page's section.
    await page.getByRole('main').getByRole('link', { name: 'Edge servers' }).click();
    await page.waitForURL(`${base}/site/${london.id}#edge-servers`);
    await studio.waitFor();
    await page.getByText('london.manager@demo.example').waitFor();
    await page.waitForTimeout(500);
    await studio.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/edge-site-section.png` });
    await context.close();
  });
});
