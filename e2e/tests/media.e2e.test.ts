import {
  formatPickerDate,
  type MediaNode,
  NODE_FETCH_LIMIT,
  NODE_MESSAGES,
  type NodeListing,
} from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications, csrf } from '../api.ts';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const ACCOUNT = 'e2e-media';
const ROOT = `/${ACCOUNT}`;

/** The children table's row of a node, by its path. */
const row = (page: Page, path: string) => page.locator(`tr[data-row-id="${path}"]`);
const rowIds = (page: Page) =>
  page
    .locator('tbody tr[data-row-id]')
    .evaluateAll((rows) => rows.map((element) => element.getAttribute('data-row-id')));
const tree = (page: Page) => page.getByRole('tree', { name: 'Folders' });

const newFolder = async (page: Page, name: string) => {
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: /^New folder in/ });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  return dialog;
};

const selectOnly = async (page: Page, path: string) => {
  for (const checkbox of await page.locator('tbody input[type="checkbox"]:checked').all())
    await checkbox.uncheck();
  await row(page, path).getByRole('checkbox').check();
};

/** Move or copy the selected nodes into a folder reached from the account's root. */
const transfer = async (page: Page, into: string[], operation: 'Move' | 'Copy') => {
  await page.getByRole('button', { name: 'Move or copy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move or copy' });
  await dialog
    .getByRole('navigation', { name: 'Destination path' })
    .getByRole('button', { name: ACCOUNT })
    .click();
  for (const name of into)
    await dialog
      .getByRole('navigation', { name: 'Destination folders' })
      .getByText(name, { exact: false })
      .click();
  await dialog.getByRole('button', { name: 'Choose this folder' }).click();
  await dialog.getByRole('button', { name: operation, exact: true }).click();
  return dialog;
};

describe('media manager', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('builds folders, moves and copies, searches, edits metadata and hides a folder from a role', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    // A fresh account of the demo's London site, so the tree starts empty.
    const [london] = await apiGet<{ id: number }[]>(context, `${base}/api/sites?searchText=London`);
    const created = await context.request.post(`${base}/api/accounts`, {
      data: { name: ACCOUNT, siteId: london?.id },
      headers: await csrf(context),
    });
    expect(created.status(), await created.text()).toBe(200);
    const listing = (path: string) =>
      apiGet<NodeListing>(context, `${base}/api/nodes?path=${encodeURIComponent(path)}`);

    // The account settings page leads to the media manager.
    await page.goto(`${base}/accounts/${ACCOUNT}/`);
    await page.getByRole('link', { name: 'Media', exact: true }).click();
    await page.waitForURL(`${base}/accounts/${ACCOUNT}/media`);
    await page.getByText(NODE_MESSAGES.noChildren).waitFor();
    await tree(page).getByRole('treeitem', { name: ACCOUNT }).waitFor();

    // New folders; a second 'News' is refused by the server and the dialog says why.
    let dialog = await newFolder(page, 'News');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(NODE_MESSAGES.folderCreated(`${ROOT}/News`)).waitFor();
    dialog = await newFolder(page, 'Private');
    await dialog.waitFor({ state: 'detached' });
    await row(page, `${ROOT}/Private`).waitFor();
    dialog = await newFolder(page, 'news');
    await dialog.getByText(/already exists/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The tree by keyboard: down to News, Enter opens it with its breadcrumbs.
    await tree(page).getByRole('treeitem', { name: 'News' }).waitFor();
    await tree(page).getByRole('treeitem', { name: ACCOUNT }).focus();
    const focused = () => page.evaluate('document.activeElement?.getAttribute("data-path")');
    const order = await tree(page)
      .locator('[role="treeitem"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));
    // The account's folders, then its Publish folder (the publishing buttons as drop targets).
    expect(
      order
        .slice(1)
        .filter((path) => !path?.startsWith(`${ROOT}/Publish`))
        .sort(),
    ).toEqual([`${ROOT}/News`, `${ROOT}/Private`]);
    for (const path of order.slice(1, order.indexOf(`${ROOT}/News`) + 1)) {
      await page.keyboard.press('ArrowDown');
      await expect.poll(focused).toBe(path);
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('path') === `${ROOT}/News`);
    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('button', { name: 'News' })
      .waitFor();
    await page.getByText(NODE_MESSAGES.noChildren).waitFor();

    // A sub-folder of News, renamed.
    dialog = await newFolder(page, 'Today');
    await dialog.waitFor({ state: 'detached' });
    await selectOnly(page, `${ROOT}/News/Today`);
    await page.getByRole('button', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename Today' });
    await dialog.getByLabel('New name').fill('Tonight');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await row(page, `${ROOT}/News/Tonight`).waitFor();
    await expect.poll(() => row(page, `${ROOT}/News/Today`).count()).toBe(0);

    // Copy into Private: the server offers move and copy there; after a copy the source stays.
    await selectOnly(page, `${ROOT}/News/Tonight`);
    dialog = await transfer(page, ['Private'], 'Copy');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(NODE_MESSAGES.transferred(`${ROOT}/News/Tonight`, 'copied', `${ROOT}/Private`))
      .waitFor();
    await row(page, `${ROOT}/News/Tonight`).waitFor();
    expect((await listing(`${ROOT}/Private`)).children.map((child) => child.name)).toEqual(['Tonight']);

    // Moving the copy back into News clashes with the original: the server's refusal shows as a warning.
    await tree(page).getByRole('button', { name: 'Open Private' }).click();
    await row(page, `${ROOT}/Private/Tonight`).waitFor();
    await selectOnly(page, `${ROOT}/Private/Tonight`);
    dialog = await transfer(page, ['News'], 'Move');
    await page
      .getByText(NODE_MESSAGES.nameTaken('Tonight', `${ROOT}/News`))
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Rename the copy, then move it back into News: after a move it leaves the list.
    await page.getByRole('button', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename Tonight' });
    await dialog.getByLabel('New name').fill('Tonight copy');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await row(page, `${ROOT}/Private/Tonight copy`).waitFor();
    await selectOnly(page, `${ROOT}/Private/Tonight copy`);
    dialog = await transfer(page, ['News'], 'Move');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(NODE_MESSAGES.transferred(`${ROOT}/Private/Tonight copy`, 'moved', `${ROOT}/News`))
      .waitFor();
    await expect.poll(() => row(page, `${ROOT}/Private/Tonight copy`).count()).toBe(0);
    await page.getByText(NODE_MESSAGES.noChildren).waitFor();
    expect((await listing(`${ROOT}/News`)).children.map((child) => child.name).sort()).toEqual([
      'Tonight',
      'Tonight copy',
    ]);

    // Back at the root: a later folder shows where the child order puts it.
    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('button', { name: ACCOUNT })
      .click();
    await page.waitForURL((url) => !url.searchParams.has('path'));
    dialog = await newFolder(page, 'Archive');
    await dialog.waitFor({ state: 'detached' });
    await row(page, `${ROOT}/Archive`).waitFor();
    const byTime = await rowIds(page);
    expect(byTime).not.toEqual([`${ROOT}/Archive`, `${ROOT}/News`, `${ROOT}/Private`]);
    await page.getByRole('radiogroup', { name: 'Child order' }).getByText('Alphabetical').click();
    await expect.poll(() => rowIds(page)).toEqual([`${ROOT}/Archive`, `${ROOT}/News`, `${ROOT}/Private`]);
    await page.getByRole('radiogroup', { name: 'Child order' }).getByText('Time').click();
    await expect.poll(() => rowIds(page)).toEqual(byTime);

    await closeNotifications(page);
    await screenshots(page, 'media-tree');

    // Search by name: the matching descendants with their paths, then Reset.
    const search = page.getByRole('region', { name: 'Search' });
    // Held a moment, so the loading indicator can be seen until the results arrive.
    await page.route('**/api/nodes?**', async (route) => {
      if (route.request().url().includes('search='))
        await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await search.getByLabel('Search value').fill('tonight');
    await search.getByRole('button', { name: 'Add clause' }).click();
    await page.getByText('Name: tonight').waitFor();
    await page.getByRole('status', { name: 'Searching' }).waitFor();
    await page.getByRole('status', { name: 'Searching' }).waitFor({ state: 'detached' });
    await page.unroute('**/api/nodes?**');
    await expect
      .poll(async () => (await rowIds(page)).sort())
      .toEqual([`${ROOT}/News/Tonight`, `${ROOT}/News/Tonight copy`]);
    await row(page, `${ROOT}/News/Tonight copy`).getByText(`${ROOT}/News/Tonight copy`).waitFor();
    await search.getByLabel('Created from').fill(formatPickerDate(new Date()));
    await search.getByLabel('Created from').press('Enter');
    await search.getByLabel('Created from').press('Escape');
    await row(page, `${ROOT}/News/Tonight copy`).waitFor();
    await closeNotifications(page);
    await screenshots(page, 'media-search');
    await search.getByLabel('Search value').fill('nothing like this');
    await search.getByRole('button', { name: 'Add clause' }).click();
    await page.getByText(NODE_MESSAGES.noResults).waitFor();
    await search.getByRole('button', { name: 'Remove Name: nothing like this' }).click();
    await row(page, `${ROOT}/News/Tonight`).waitFor();
    await search.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.getByText('Name: tonight').count()).toBe(0);
    await expect.poll(() => search.getByLabel('Created from').inputValue()).toBe('');
    await expect.poll(() => rowIds(page)).toEqual(byTime);

    // A metadata field on News: added, then changed with click-to-edit.
    await selectOnly(page, `${ROOT}/News`);
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByText('Metadata of News').waitFor();
    await metadata.getByLabel('Field', { exact: true }).fill('location');
    await metadata.getByLabel('Value', { exact: true }).fill('London');
    await metadata.getByRole('button', { name: 'Add field' }).click();
    await page.getByText(NODE_MESSAGES.fieldSaved('location')).waitFor();
    await metadata.getByRole('button', { name: 'Edit location' }).click();
    await metadata.getByLabel('location', { exact: true }).fill('Paris');
    await metadata.getByLabel('location', { exact: true }).press('Enter');
    await metadata.getByRole('button', { name: 'Edit location' }).getByText('Paris').waitFor();
    await expect.poll(async () => (await listing(`${ROOT}/News`)).node.metadata.location).toBe('Paris');

    // Private hidden from the Viewer role.
    await selectOnly(page, `${ROOT}/Private`);
    await page.getByRole('button', { name: 'Folder permissions' }).click();
    dialog = page.getByRole('dialog', { name: 'Folder permissions of Private' });
    await choose(page, dialog.getByLabel('Access of Viewer'), 'Hidden');
    await closeNotifications(page);
    await screenshots(page, 'media-permissions');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(NODE_MESSAGES.permissionsSaved(`${ROOT}/Private`)).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const privateNode = (await listing(ROOT)).children.find((child: MediaNode) => child.name === 'Private');
    expect(privateNode?.permissions).toEqual([{ roleId: expect.any(Number), access: 'none' }]);

    // Edit as role → Viewer: the banner, no Private, no New folder.
    await page.goto(`${base}/accounts/${ACCOUNT}/`);
    await page.getByRole('button', { name: 'Edit as role' }).click();
    await page.getByRole('menuitem', { name: 'Viewer', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === `/accounts/${ACCOUNT}/media` && url.searchParams.has('role'),
    );
    await page.getByText(NODE_MESSAGES.actingAs('Viewer')).waitFor();
    await row(page, `${ROOT}/News`).waitFor();
    expect(await row(page, `${ROOT}/Private`).count()).toBe(0);
    expect(await tree(page).getByRole('treeitem', { name: 'Private' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    await closeNotifications(page);
    await screenshots(page, 'media-acting-viewer');

    // Reset role: the banner goes and Private is back.
    await page.getByRole('button', { name: 'Reset role' }).click();
    await page.getByText(NODE_MESSAGES.actingAs('Viewer')).waitFor({ state: 'detached' });
    await row(page, `${ROOT}/Private`).waitFor();
    await page.getByRole('button', { name: 'New folder' }).waitFor();
    await page.waitForURL((url) => !url.searchParams.has('role'));
    await context.close();
  });

  it("shows an account's media: thumbnails, durations, types and metadata with the field59 entry", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    // A deep link opens the folder with its ancestors open in the tree.
    await page.goto(
      `${base}/accounts/evening-news/media?path=${encodeURIComponent('/evening-news/News/Today')}`,
    );
    const weather = row(page, '/evening-news/News/Today/Weather opener');
    await weather.waitFor();
    await tree(page).getByRole('treeitem', { name: 'Today', exact: true }).waitFor();
    expect(
      await tree(page).getByRole('treeitem', { name: 'News', exact: true }).getAttribute('aria-expanded'),
    ).toBe('true');
    await expect
      .poll(() =>
        weather
          .locator('img')
          .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    await weather.getByText('6s', { exact: true }).waitFor();
    await row(page, '/evening-news/News/Today/Bulletin sequence')
      .getByText('sequence', { exact: true })
      .waitFor();

    await selectOnly(page, '/evening-news/News/Today/Weather opener');
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByText('Metadata of Weather opener').waitFor();
    await metadata.getByRole('button', { name: 'Edit location' }).getByText('London studio').waitFor();
    await metadata.getByText('Field59 Key').waitFor();
    await metadata.getByText('abc123').waitFor();
    await closeNotifications(page);
    await screenshots(page, 'media-demo-folder');
    await context.close();
  });

  it('pages a large folder by nextChildOffset and shows a change made elsewhere at once', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const createFolder = async (parentPath: string, name: string) => {
      const response = await context.request.post(`${base}/api/nodes`, {
        data: { parentPath, type: 'folder', name },
        headers: await csrf(context),
      });
      expect(response.status(), await response.text()).toBe(200);
    };
    const many = '/documentaries/Many';
    await createFolder('/documentaries', 'Many');
    for (let index = 1; index <= NODE_FETCH_LIMIT + 5; index += 1)
      await createFolder(many, `Reel ${String(index).padStart(3, '0')}`);

    await page.goto(`${base}/accounts/documentaries/media?path=${encodeURIComponent(many)}`);
    const count = page.getByTestId('children-count');
    await count.getByText(`${NODE_FETCH_LIMIT} of ${NODE_FETCH_LIMIT + 5}`).waitFor();
    const table = count.locator('..');
    // On a loaded machine the live refresh of the 105 creations can replace the list after the click, back
    // at its first page: Load more is pressed again while it is offered.
    const all = count.getByText(`${NODE_FETCH_LIMIT + 5} of ${NODE_FETCH_LIMIT + 5}`);
    for (let attempt = 1; ; attempt += 1) {
      const loadMore = table.getByRole('button', { name: 'Load more' });
      // A button still loading is disabled; one that then goes (nothing more) is not clicked.
      if ((await loadMore.count()) > 0) await loadMore.click({ timeout: 5_000 }).catch(() => undefined);
      if (
        await all.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => attempt === 6,
        )
      )
        break;
    }
    await all.waitFor();
    expect(await table.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // The tree pages the folder's sub-folders the same way.
    // A tree item's sub-folders follow it (their paths and levels say whose they are).
    const branch = tree(page).locator(`[role="treeitem"][data-path^="${many}/"]`);
    await branch.nth(NODE_FETCH_LIMIT - 1).waitFor();
    expect(await branch.count()).toBe(NODE_FETCH_LIMIT);
    await tree(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => branch.count()).toBe(NODE_FETCH_LIMIT + 5);

    // A folder made elsewhere (another session, here the API) shows without a reload.
    await createFolder(many, 'Made elsewhere');
    await count.getByText(`${NODE_FETCH_LIMIT + 6} of ${NODE_FETCH_LIMIT + 6}`).waitFor();
    await tree(page).getByRole('treeitem', { name: 'Made elsewhere' }).waitFor();
    await context.close();
  });
});
