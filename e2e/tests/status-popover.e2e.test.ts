import {
  RTMP_APP,
  STATUS_WIDGET_MESSAGES,
  STREAM_ADDRESS_PLACEHOLDER,
  type StatusItem,
  statusFetchFailed,
} from '@media/contract';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  demoLoadedAtStart,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

/**
 * The shell's status popover (spec1 §2/§4, spec2 §2; issue 13): what agents reported about the edge
 * servers, services and endpoints of the page's account, problems first, kept live.
 */
describe('status popover', () => {
  const setup = useServerAndBrowser(
    { SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD, LOCAL_EDGE: '1' },
    // Its popover shows which edge servers are connected: London's is, just after the demo is loaded.
    demoLoadedAtStart,
  );

  it("shows an account's problems, everything on Show all, nested, and says when a fetch fails", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    const items = await apiGet<StatusItem[]>(context, `${base}/api/accounts/${account.id}/status`);
    const problems = items.filter((item) => item.status === 'error');
    expect(items.length).toBeGreaterThan(problems.length);

    await page.goto(`${base}/accounts/evening-news/`);
    const button = page.getByRole('button', { name: /^Status \(\d+ problems\)$/ });
    await expect.poll(() => button.getAttribute('aria-label')).toBe(`Status (${problems.length} problems)`);
    // By keyboard: Enter on the button opens the popover.
    await button.focus();
    await page.keyboard.press('Enter');
    const popover = page.getByTestId('status-popover');
    await popover.waitFor();
    if (problems.length === 0) await popover.getByText(STATUS_WIDGET_MESSAGES.allOk).waitFor();
    else {
      await expect.poll(() => popover.getByTestId('status-item').count()).toBe(problems.length);
      for (const problem of problems) await popover.getByText(problem.message).first().waitFor();
    }
    // The demo's field kit never connects: its edge server, service and endpoint are errors, nested.
    const field = await popover
      .getByTestId('status-item')
      .evaluateAll((rows) =>
        rows.map((row) => [row.getAttribute('data-type'), row.getAttribute('data-depth')]),
      );
    expect(field.slice(0, 3)).toEqual([
      ['EdgeServer', '0'],
      ['Service', '1'],
      ['Endpoint', '2'],
    ]);
    await popover.getByText('Edge server not connected').waitFor();
    // Each row leads to its own page: the endpoint to its service's endpoints, the edge server to its list.
    const endpointLink = popover.getByRole('link', { name: 'Reporter RTMP push' });
    const endpointHref = (await endpointLink.getAttribute('href')) ?? '';
    expect(endpointHref).toMatch(/^\/edge\/\d+\/services\/\d+\/endpoints\?.*#\/\d+$/);
    expect(await popover.getByRole('link', { name: 'Field kit' }).getAttribute('href')).toMatch(
      /^\/users\/\d+\/edge#\/\d+$/,
    );
    await popover.screenshot({ path: '/tmp/status-popover-errors.png' });
    await screenshots(page, 'status-popover-problems');

    // By keyboard: the switch takes the focus and Space turns it.
    await popover.getByRole('switch', { name: STATUS_WIDGET_MESSAGES.showAll }).focus();
    await page.keyboard.press('Space');
    await popover.getByText(STATUS_WIDGET_MESSAGES.hideExpected).waitFor();
    await expect.poll(() => popover.getByTestId('status-item').count()).toBe(items.length);
    // Nesting: each edge server first, its services and endpoints indented under it.
    const types = await popover
      .getByTestId('status-item')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-type')));
    expect(types).toEqual(items.map((item) => item.type));
    expect(types[0]).toBe('EdgeServer');
    await popover.screenshot({ path: '/tmp/status-popover.png' });
    await screenshots(page, 'status-popover-all');
    // Escape closes it and gives the focus back to the button. From inside the popover: on a loaded machine
    // the list's refresh may have redrawn the switch that held the focus.
    await popover.getByRole('switch').focus();
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });
    await expect.poll(() => button.evaluate((element) => element.matches(':focus'))).toBe(true);
    // Kept live: disabling the field kit's endpoint reaches the button without a reload or the 15 s refresh.
    const endpointId = /#\/(\d+)$/.exec(endpointHref)?.[1];
    const disabled = await context.request.post(`${base}/api/endpoints/${endpointId}/actions/disable`, {
      headers: await csrf(context),
      data: {},
    });
    expect(disabled.status()).toBe(200);
    await expect
      .poll(() => button.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe(`Status (${problems.length - 1} problems)`);
    // The endpoint's link opens its service's endpoints page (Space opens the popover too).
    await page.keyboard.press('Space');
    await popover
      .getByTestId('status-item')
      .filter({ hasText: 'Reporter RTMP push' })
      .getByText('disabled', { exact: true })
      .waitFor();
    await endpointLink.click();
    await page.waitForURL(/\/edge\/\d+\/services\/\d+\/endpoints/);
    // Its card says where to push (the demo edge has no address for streams yet).
    const card = page.getByRole('article', { name: 'Endpoint Reporter RTMP push' });
    await expect
      .poll(() => card.getByTestId('stream-push-url').textContent())
      .toBe(`rtmp://${STREAM_ADDRESS_PLACEHOLDER}:1935/${RTMP_APP}`);
    expect(await card.getByTestId('stream-push-key').textContent()).toBe('reporter-7');
    await screenshots(page, 'endpoint-push-address');

    // Nothing in error: 'Everything is OK' (the answer replaced by one where all is well).
    const fine: StatusItem[] = [
      { type: 'EdgeServer', name: 'Calm', status: 'ok', message: 'Connected', links: {} },
      { type: 'Endpoint', name: 'Quiet', status: 'ok', message: 'Reading /in', links: {} },
    ];
    await page.route('**/api/accounts/*/status', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ results: fine }),
      }),
    );
    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('button', { name: 'Status (0 problems)' }).click();
    await page.getByTestId('status-popover').getByText(STATUS_WIDGET_MESSAGES.allOk).waitFor();
    await screenshots(page, 'status-popover-ok');
    await page.unrouteAll();

    // An endpoint in error on a connected edge server: its service and it show, saying where they are.
    const lone: StatusItem[] = [
      { type: 'EdgeServer', name: 'Calm', status: 'ok', message: 'Connected', links: { edgeServer: '/e' } },
      { type: 'Service', name: 'Files', status: 'error', message: '1 in error', links: { edgeServer: '/e' } },
      {
        type: 'Endpoint',
        name: 'Drop',
        status: 'error',
        message: 'No such folder',
        links: { edgeServer: '/e' },
      },
    ];
    await page.route('**/api/accounts/*/status', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ results: lone }),
      }),
    );
    await page.reload();
    await page.getByRole('button', { name: 'Status (2 problems)' }).click();
    const rows = page.getByTestId('status-popover').getByTestId('status-item');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.first().getByText('Service in Calm').waitFor();
    expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-depth')))).toEqual([
      '0',
      '1',
    ]);
    await rows.nth(1).getByText('No such folder').waitFor();
    await page.unrouteAll();

    // A failed fetch says so, with the status and the server's message.
    await page.route('**/api/accounts/*/status', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'Try again shortly' } }),
      }),
    );
    await page.reload();
    await page.getByRole('button', { name: /^Status/ }).click();
    await page.getByText(statusFetchFailed('account', 503, 'Try again shortly')).waitFor();
    await context.close();
  });

  it('shows no status button to users who do not manage the account', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // The account says who manages it: others get no button, and the status is not asked for (issue 18).
    const asked: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(accounts|sites)\/\d+\/status$/.test(request.url())) asked.push(request.url());
    });
    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Web upload' }).waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByRole('button', { name: /^Status/ }).count()).toBe(0);
    expect(asked).toEqual([]);
    await context.close();
  });
});
