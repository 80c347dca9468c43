import type { Endpoint, IngestQueueItem, Service, ServiceGroup, ServiceType } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const row = (page: Page, id: number) => page.locator(`tr[data-row-id="${id}"]`);

describe("an endpoint's ingest queue, and a new service's fail-over group", () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it("opens an endpoint's queue from its card, and a change of one item shows without reading the list again", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    const all = await apiGet<IngestQueueItem[]>(
      context,
      `${base}/api/accounts/${account.id}/ingestQueueItems?pageSize=1000`,
    );
    const failed = all.find((item) => !item.isStream && item.status === 'failed' && item.endpointId !== null);
    if (!failed?.endpointId) throw new Error('the demo has no failed file item');
    const endpoint = await apiGet<Endpoint>(context, `${base}/api/endpoints/${failed.endpointId}`);
    const ofEndpoint = await apiGet<IngestQueueItem[]>(
      context,
      `${base}/api/endpoints/${endpoint.id}/ingestQueueItems?pageSize=1000`,
    );
    const elsewhere = all.filter((item) => item.endpointId !== endpoint.id).slice(0, 5);
    expect(elsewhere.length).toBeGreaterThan(0);

    // What the page reads: the endpoint's queue, and the queue's actions (once, then cached).
    const queueReads: string[] = [];
    let actionReads = 0;
    page.on('request', (request) => {
      const url = request.url();
      if (url.includes(`/api/endpoints/${endpoint.id}/ingestQueueItems`)) queueReads.push(url);
      if (url.includes(`/api/endpoints/${endpoint.id}/ingestQueueItemActions`)) actionReads += 1;
    });

    // The endpoint card links to its queue.
    await page.goto(
      `${base}/edge/${endpoint.edgeServerId}/services/${endpoint.serviceId}/endpoints?context=cloud#/${endpoint.id}`,
    );
    const card = page.getByRole('article', { name: `Endpoint ${endpoint.name}` });
    await card.waitFor();
    await card.getByRole('link', { name: `Ingest queue of ${endpoint.name}` }).click();
    await page.waitForURL(
      `${base}/edge/${endpoint.edgeServerId}/services/${endpoint.serviceId}/endpoints/${endpoint.id}/ingestQueue?context=cloud`,
    );
    await page.getByTestId('queue-endpoint').getByText(endpoint.name).waitFor();

    // Only this endpoint's items.
    for (const item of ofEndpoint.slice(0, 5)) await row(page, item.id).waitFor();
    for (const item of elsewhere) expect(await row(page, item.id).count()).toBe(0);

    // The menu offers the status changes of the server's …/ingestQueueItemActions answer.
    await page.getByRole('button', { name: `Actions for item ${failed.id}` }).click();
    await page.getByRole('menuitem', { name: 'Set to queued', exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Set to action required', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    // A change made elsewhere: the page reads only what changed (sinceVersion) and updates that row in place.
    const before = queueReads.length;
    const changed = await context.request.post(`${base}/api/ingestQueueItems/${failed.id}`, {
      data: { id: failed.id, status: 'queued' },
      headers: await csrf(context),
    });
    expect(changed.status()).toBe(200);
    await row(page, failed.id).getByText('queued', { exact: true }).waitFor();
    await page.waitForTimeout(1000);
    const since = queueReads.slice(before);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((url) => url.includes('sinceVersion='))).toBe(true);
    await screenshots(page, 'endpoint-queue');

    // A change made on the page; the actions answer is still the one read first.
    await page.getByRole('button', { name: `Actions for item ${failed.id}` }).click();
    await page.getByRole('menuitem', { name: 'Set to action required', exact: true }).click();
    await row(page, failed.id).getByText('action required', { exact: true }).waitFor();
    expect(actionReads).toBe(1);

    // A stream endpoint's card counts its queued stream items with spec2 §7's lookup of the edge's queue.
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('filters=queued%7Cstreams')) lookups.push(request.url());
    });
    const endpoints = await apiGet<Endpoint[]>(
      context,
      `${base}/api/edgeServers/${endpoint.edgeServerId}/endpoints`,
    );
    const stream = endpoints.find((candidate) => candidate.category === 'stream');
    if (!stream) throw new Error('the edge server has no stream endpoint');
    const lookup = await apiGet<IngestQueueItem[]>(
      context,
      `${base}/api/edgeServers/${endpoint.edgeServerId}/ingestQueueItems?sortKey=id&sortDirection=1&filters=queued%7Cstreams&pageSize=100`,
    );
    const queued = lookup.filter((item) => item.endpointId === stream.id).length;
    await page.goto(
      `${base}/edge/${stream.edgeServerId}/services/${stream.serviceId}/endpoints?context=cloud#/${stream.id}`,
    );
    const streamCard = page.getByRole('article', { name: `Endpoint ${stream.name}` });
    await streamCard
      .getByTestId('queued-streams')
      .getByText(queued === 1 ? '1 queued stream' : `${queued} queued streams`, { exact: true })
      .waitFor();
    expect(lookups.length).toBeGreaterThan(0);
    for (const url of lookups) {
      const query = new URL(url).searchParams;
      expect([query.get('sortKey'), query.get('sortDirection'), query.get('pageSize')]).toEqual([
        'id',
        '1',
        '100',
      ]);
    }
    await screenshots(page, 'endpoint-cards-queue');

    // The edge server's queue page offers the endpoint filter (edgesEndpointIds).
    const edgeReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/edgeServers/${endpoint.edgeServerId}/ingestQueueItems`))
        edgeReads.push(request.url());
    });
    await page.goto(
      `${base}/edge/${endpoint.edgeServerId}/ingestQueue?context=cloud#/forEdge/${endpoint.edgeServerId}`,
    );
    await row(page, failed.id).waitFor();
    await choose(page, page.getByRole('combobox', { name: 'Endpoints' }), endpoint.name);
    await page.keyboard.press('Escape');
    await expect
      .poll(() => edgeReads.some((url) => url.includes(`edgesEndpointIds=${endpoint.id}`)))
      .toBe(true);
    await row(page, failed.id).waitFor();

    // An account's queue can put its arrivals folders' priorities first (priorityMap).
    if (endpoint.arrivalsFolderId === null || endpoint.accountId === null)
      throw new Error('the endpoint delivers into no arrivals folder');
    const folder = await apiGet<{ id: number; name: string }>(
      context,
      `${base}/api/arrivalsFolders/${endpoint.arrivalsFolderId}`,
    );
    const saved = await context.request.post(`${base}/api/arrivalsFolders/${folder.id}`, {
      data: { id: folder.id, name: folder.name, priority: 7 },
      headers: await csrf(context),
    });
    expect(saved.status()).toBe(200);
    const maps: string[] = [];
    page.on('request', (request) => {
      const map = new URL(request.url()).searchParams.get('priorityMap');
      if (request.url().includes(`/api/accounts/${endpoint.accountId}/ingestQueueItems`) && map)
        maps.push(map);
    });
    await page.goto(`${base}/accounts/${endpoint.accountId}/ingestQueue`);
    await row(page, failed.id).waitFor();
    expect(maps).toEqual([]);
    await page.getByRole('checkbox', { name: 'Folder priority first' }).check();
    await expect.poll(() => maps.length).toBeGreaterThan(0);
    const boosts = JSON.parse(maps[0] ?? '{}') as Record<string, number>;
    expect(boosts[String(endpoint.id)]).toBe(7);
    const top = Math.max(...Object.values(boosts));
    await expect
      .poll(async () => {
        const id = Number(await page.locator('tbody tr[data-row-id]').first().getAttribute('data-row-id'));
        return boosts[String(all.find((item) => item.id === id)?.endpointId)];
      })
      .toBe(top);
    await context.close();
  });

  it('creates a service in the fail-over group of another service', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const edges = await apiGet<{ id: number; name: string }[]>(context, `${base}/api/edgeServers`);
    const [first, second] = edges;
    if (!first || !second) throw new Error('the demo has fewer than two edge servers');
    const [service] = await apiGet<Service[]>(context, `${base}/api/edgeServers/${first.id}/services`);
    if (!service) throw new Error(`${first.name} has no service`);
    const types = await apiGet<ServiceType[]>(context, `${base}/api/edgeServers/${second.id}/serviceTypes`);
    const type = types.find((candidate) => candidate.id === service.typeId);
    if (!type) throw new Error(`${second.name} cannot run ${service.typeId}`);
    const groups = await apiGet<ServiceGroup[]>(
      context,
      `${base}/api/edgeServers/${second.id}/serviceGroups?typeId=${service.typeId}`,
    );
    const group = groups.find((candidate) => candidate.serviceGroupId === service.serviceGroupId);
    if (!group) throw new Error('the service group is not offered');
    const label = `Fail-over with ${group.services.map((s) => `${s.name} (${s.edgeServerName})`).join(', ')}`;

    await page.goto(`${base}/edge/${second.id}/services?context=cloud`);
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByRole('menuitem', { name: type.name, exact: true }).click();
    const draft = page.getByRole('article', { name: 'New service' });
    await draft.getByRole('textbox', { name: 'Name', exact: true }).fill('Standby ingest');
    await choose(page, draft.getByLabel('Service group', { exact: true }), label);
    await screenshots(page, 'service-group-choice');
    await draft.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('article', { name: 'Service Standby ingest' }).waitFor();
    const made = (await apiGet<Service[]>(context, `${base}/api/edgeServers/${second.id}/services`)).find(
      (candidate) => candidate.name === 'Standby ingest',
    );
    expect(made?.serviceGroupId).toBe(service.serviceGroupId);
    await context.close();
  });
});
