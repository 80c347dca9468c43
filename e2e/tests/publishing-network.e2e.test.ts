import { newButtonBody, PUBLISH_MESSAGES, type PublishButton } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const ACCOUNT = 'e2e-network';

const graphNode = (page: Page, id: number) => page.locator(`.react-flow__node[data-id="${id}"]`);
const handle = (page: Page, id: number, kind: 'source' | 'target') =>
  graphNode(page, id).locator(`.react-flow__handle.${kind}`);
const shownIds = (page: Page) =>
  page
    .locator('.react-flow__node')
    .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-id'))).sort());
const edgeIds = (page: Page) =>
  page
    .locator('.react-flow__edge')
    .evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-id')).sort());

/** Drags from one handle to another with the mouse, the graph scrolled into view first. */
const drag = async (page: Page, from: ReturnType<typeof handle>, to: ReturnType<typeof handle>) => {
  await page.locator('.react-flow').scrollIntoViewIfNeeded();
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('a handle is not shown');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 10 });
  await page.mouse.up();
};

const addModule = async (page: Page, name: string) => {
  await page.getByRole('combobox', { name: 'Module' }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Add node' }).click();
};

describe('publishing network editor', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('opens network mode by double-click and edits the network by dragging, the palette and the keyboard', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    // A fresh account of the demo's London site, with one button: Media source → As is → Export to folder.
    const [london] = await apiGet<{ id: number }[]>(context, `${base}/api/sites?searchText=London`);
    const created = await context.request.post(`${base}/api/accounts`, {
      data: { name: ACCOUNT, siteId: london?.id },
      headers: await csrf(context),
    });
    expect(created.status(), await created.text()).toBe(200);
    const account = (await created.json()) as { results: { id: number } };
    const accountId = account.results.id;
    const body = newButtonBody({
      name: 'Net test',
      processModuleId: 'as-is',
      destinationModuleId: 'folder-export',
    });
    const destination = body.phases[0]?.phase.network.nodes.find((node) => node.nodeLocalId === 1);
    if (destination) destination.options = { folder: '/exports' };
    const made = await context.request.post(`${base}/api/accounts/${accountId}/publishButtons`, {
      data: body,
      headers: await csrf(context),
    });
    expect(made.status(), await made.text()).toBe(200);
    const buttonId = ((await made.json()) as { results: { id: number } }).results.id;

    await page.goto(`${base}/accounts/${ACCOUNT}/publishing`);
    const card = page.getByRole('region', { name: 'Publishing button Net test' });
    await card.waitFor();

    // Double-clicking the card opens network mode: four columns, each node named by its module.
    await card.dblclick({ position: { x: 6, y: 6 } });
    const editor = page.getByTestId('network-editor');
    await editor.waitFor();
    await graphNode(page, 2).waitFor();
    await page.locator('.react-flow__edge[data-id="2-1"]').waitFor({ state: 'attached' });
    await expect.poll(() => shownIds(page)).toEqual([0, 1, 2]);
    expect(await graphNode(page, 0).textContent()).toBe('Media source');
    expect(await graphNode(page, 2).textContent()).toBe('As is');
    const x = async (id: number) => (await graphNode(page, id).boundingBox())?.x ?? 0;
    expect(await x(0)).toBeLessThan(await x(2));
    expect(await x(2)).toBeLessThan(await x(1));
    const box = await graphNode(page, 2).boundingBox();
    expect([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)]).toEqual([100, 50]);
    await expect.poll(() => edgeIds(page)).toEqual(['0-2', '2-1']);
    await screenshots(page, 'publishing-network-mode');

    // A single click selects a node only after 500 ms; a double-click selects nothing.
    await graphNode(page, 1).dblclick();
    await page.waitForTimeout(700);
    expect(await graphNode(page, 1).getAttribute('class')).not.toContain('selected');
    await graphNode(page, 2).click();
    await page.waitForTimeout(150);
    expect(await graphNode(page, 2).getAttribute('class')).not.toContain('selected');
    await page.waitForTimeout(600);
    expect(await graphNode(page, 2).getAttribute('class')).toContain('selected');

    // The palette adds a Transcode node, unconnected: the network is no longer stratified and has problems.
    await addModule(page, 'Transcode');
    await graphNode(page, 3).waitFor();
    const problems = page.getByTestId('network-editor-problems');
    await problems.getByText(PUBLISH_MESSAGES.tooFewInputs('Transcode')).waitFor();
    await problems.getByText(PUBLISH_MESSAGES.mustGoToDestination('Transcode')).waitFor();

    // Dragging from the source's output to Transcode's input connects them.
    await drag(page, handle(page, 0, 'source'), handle(page, 3, 'target'));
    await page.locator('.react-flow__edge[data-id="0-3"]').waitFor({ state: 'attached' });
    await problems.getByText(PUBLISH_MESSAGES.tooFewInputs('Transcode')).waitFor({ state: 'detached' });
    // A refused link says why: As is takes only the media source.
    await drag(page, handle(page, 3, 'source'), handle(page, 2, 'target'));
    await page
      .getByTestId('network-refusal')
      .getByText(PUBLISH_MESSAGES.cannotConnect('Transcode', 'As is'))
      .waitFor();
    await expect.poll(() => edgeIds(page)).toEqual(['0-2', '0-3', '2-1']);
    await drag(page, handle(page, 3, 'source'), handle(page, 1, 'target'));
    await page.locator('.react-flow__edge[data-id="3-1"]').waitFor({ state: 'attached' });
    expect(await problems.count()).toBe(0);
    await screenshots(page, 'publishing-network-edited');

    // The keyboard: Enter selects the focused node at once, Delete removes it; never the source.
    await graphNode(page, 0).focus();
    await page.keyboard.press('Enter');
    expect(await editor.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await graphNode(page, 3).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Delete');
    await graphNode(page, 3).waitFor({ state: 'detached' });
    await expect.poll(() => edgeIds(page)).toEqual(['0-2', '2-1']);

    // Deleting the last process node hides the source; adding one brings it back, wired through.
    await graphNode(page, 2).focus();
    await page.keyboard.press('Enter');
    await editor.getByRole('button', { name: 'Delete node' }).click();
    await page.getByTestId('network-hidden-source').waitFor();
    await expect.poll(() => shownIds(page)).toEqual([1]);
    await addModule(page, 'Transcode');
    await graphNode(page, 0).waitFor();
    await expect.poll(() => edgeIds(page)).toEqual(['0-2', '2-1']);
    expect(await graphNode(page, 2).textContent()).toBe('Transcode');

    // Saved, the server has the edited network.
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(PUBLISH_MESSAGES.saved).first().waitFor();
    const saved = await apiGet<PublishButton[]>(
      context,
      `${base}/api/accounts/${accountId}/publishButtons?phases=expand`,
    );
    const network = saved.find((button) => button.id === buttonId)?.phases[0]?.phase.network;
    expect(network?.nodes.map((node) => node.moduleId).sort()).toEqual([
      'folder-export',
      'source-media',
      'transcode',
    ]);
    expect(network?.connections).toEqual([
      [0, 2],
      [2, 1],
    ]);
  });
});
