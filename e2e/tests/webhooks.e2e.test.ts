import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MSG_WEBHOOK_EVENTS_REQUIRED,
  MSG_WEBHOOK_SECRET_SHOWN_ONCE,
  MSG_WEBHOOK_URL_REQUIRED,
  WEBHOOK_EVENT_GROUPS,
  type Webhook,
} from '@media/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, closeNotifications } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';
import { accessibilityViolations } from '../roles.ts';

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

/**
 * A webhook receiver on 127.0.0.1: records every request and answers `answers` in turn (200 once they run out),
 * with a small JSON body the delivery's details must show.
 */
const startReceiver = async () => {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const status = answers.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'application/json', 'x-receiver': 'e2e' });
      response.end(JSON.stringify({ received: received.length, status }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Standard Webhooks 1.0: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's base64 part. */
const signedWith = (secret: string, request: Received) => {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  const expected = Buffer.from(createHmac('sha256', key).update(signed).digest('base64'));
  return String(request.headers['webhook-signature'] ?? '')
    .split(' ')
    .map((part) => Buffer.from(part.replace(/^v1,/, '')))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
};

const signedIn = async (page: Page, url: string, username: string, password = E2E_DEMO_PASSWORD) => {
  await signIn(page, url, username, password);
  await page.getByTestId('signed-in-user').waitFor();
};

/** Fills the New webhook dialog (address, description, the events named and whole groups) and creates it. */
const createWebhook = async (
  page: Page,
  input: { url: string; description: string; groups: string[]; events: string[] },
) => {
  await page.getByRole('button', { name: 'New webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'New webhook' });
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Address' }).fill(input.url);
  await dialog.getByRole('textbox', { name: 'Description' }).fill(input.description);
  for (const group of input.groups)
    await dialog.getByRole('checkbox', { name: `All ${group} events` }).check();
  for (const event of input.events) await dialog.getByRole('checkbox', { name: event, exact: true }).check();
  await dialog.getByRole('button', { name: 'Create webhook' }).click();
  await dialog.waitFor({ state: 'detached' });
  const secret = (await page.getByTestId('webhook-secret-value').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  return secret;
};

/**
 * Waits for the notification saying `text` (it comes once its request has settled, which may be after the list
 * shows the change), then closes every notification: top right, they cover the rows' last actions.
 */
const closeNotificationsAfter = async (page: Page, text: string) => {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
  await closeNotifications(page);
};

/** The shown secret is put away, and is nowhere on the page any more. */
const putSecretAway = async (page: Page, secret: string) => {
  await page.getByTestId('webhook-secret').getByRole('button', { name: 'I have copied it' }).click();
  await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });
  expect(await page.locator('body').textContent()).not.toContain(secret);
};

describe('webhooks pages (issue 33): the cloud Webhooks page and an account Integrations page', () => {
  const setup = useServerAndBrowser({
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    // The receiver is on 127.0.0.1.
    OUTBOUND_ALLOW_LOOPBACK: '1',
  });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('lets an administrator create a cloud webhook, see its secret once, send a test that arrives signed, read the delivery, retry one, disable and enable it, rotate its secret and remove it', async () => {
    const { context, page } = await newPage(setup.browser);
    await signedIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    await page.getByTestId('webhooks-empty').waitFor();

    // Nothing chosen and no address: both said, nothing sent.
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText(MSG_WEBHOOK_URL_REQUIRED).waitFor();
    await dialog.getByText(MSG_WEBHOOK_EVENTS_REQUIRED).waitFor();
    // A group's box chooses its events; one of them unchosen leaves the group's box mixed.
    await dialog.getByRole('checkbox', { name: 'All Ingest events' }).check();
    for (const event of WEBHOOK_EVENT_GROUPS.Ingest)
      expect(await dialog.getByRole('checkbox', { name: event, exact: true }).isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'ingest.queued', exact: true }).uncheck();
    expect(
      await dialog
        .getByRole('checkbox', { name: 'All Ingest events' })
        .evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate),
    ).toBe(true);
    await dialog.getByRole('checkbox', { name: 'publish.done', exact: true }).check();
    await dialog.getByRole('textbox', { name: 'Address' }).fill(`${receiver.url}/cloud`);
    // Typing an address takes its error away (and choosing events theirs).
    await dialog.getByText(MSG_WEBHOOK_URL_REQUIRED).waitFor({ state: 'detached' });
    expect(await dialog.getByText(MSG_WEBHOOK_EVENTS_REQUIRED).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'webhooks-new');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    const url = `${receiver.url}/cloud`;
    const secret = await createWebhook(page, {
      url,
      description: 'Archive: fetch every ingested file',
      groups: ['Ingest'],
      events: ['publish.done'],
    });
    await page.getByTestId('webhook-secret').getByText(MSG_WEBHOOK_SECRET_SHOWN_ONCE).waitFor();
    const row = page.getByTestId('webhooks').locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('5 events');
    expect(await row.textContent()).toContain('Archive: fetch every ingested file');
    expect(await row.textContent()).toContain('None yet');
    // The list names the secret by its start only.
    const listed = await apiGet<Webhook[]>(context, `${setup.server.url}/api/webhooks`);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(secret.startsWith(listed[0]?.secretPrefix ?? '-')).toBe(true);
    await closeNotifications(page);
    await screenshots(page, 'webhooks-created');
    await putSecretAway(page, secret);

    // Send test: a ping reaches the receiver, signed with the secret shown, and shows as delivered.
    await page.getByRole('button', { name: `Send test to ${url}` }).click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    const ping = receiver.received[0] as Received;
    expect(ping.path).toBe('/cloud');
    expect(JSON.parse(ping.body).type).toBe('ping');
    expect(signedWith(secret, ping)).toBe(true);
    const deliveries = page.getByTestId('webhook-deliveries');
    await deliveries.locator('[data-status="delivered"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => row.locator('[data-status="delivered"]').count()).toBe(1);
    // The notification of the test closed first: the dialog's backdrop would keep it from being closed.
    await closeNotificationsAfter(page, 'Test delivery sent');
    await deliveries.getByRole('button', { name: /^ping: details of delivery \d+$/ }).click();
    const details = page.getByRole('dialog', { name: 'Delivery of ping' });
    await details.waitFor();
    expect(await details.getByLabel('Response body').textContent()).toContain('"received": 1');
    expect(await details.getByLabel('Response headers').textContent()).toContain('x-receiver: e2e');
    expect(await details.getByLabel('Request body').textContent()).toContain('"type": "ping"');
    expect(await details.getByLabel('Request headers').textContent()).toContain(
      `webhook-id: ${ping.headers['webhook-id']}`,
    );
    expect(await details.textContent()).not.toContain(secret);
    expect(await details.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // Its opening transition over (a half-faded badge reads as too little contrast).
    await expect
      .poll(() =>
        details.evaluate(
          (element) =>
            (
              globalThis as unknown as { getComputedStyle: (e: unknown) => { opacity: string } }
            ).getComputedStyle(element).opacity,
        ),
      )
      .toBe('1');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'webhooks-delivery');
    // Escape closes it, and the focus goes back to the row that opened it.
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")'))
      .toMatch(/^ping: details of delivery \d+$/);

    // A receiver answering 500: the ping waits for its next try, and Retry sends it now.
    receiver.answers.push(500);
    await page.getByRole('button', { name: `Send test to ${url}` }).click();
    await deliveries.locator('[data-status="retrying"]').waitFor({ timeout: 30_000 });
    expect(receiver.received).toHaveLength(2);
    await deliveries.getByRole('button', { name: /^Retry delivery \d+$/ }).click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3);
    await expect
      .poll(() => deliveries.locator('[data-status="delivered"]').count(), { timeout: 30_000 })
      .toBe(2);
    expect(receiver.received[2]?.headers['webhook-id']).toBe(receiver.received[1]?.headers['webhook-id']);
    await closeNotificationsAfter(page, 'Delivery retried');
    await screenshots(page, 'webhooks-deliveries');

    // Disabled: no test can be sent; enabled again.
    const toggle = page.getByRole('switch', { name: `Enabled: ${url}` });
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: `Send test to ${url}` }).isDisabled()).toBe(true);
    expect((await apiGet<Webhook[]>(context, `${setup.server.url}/api/webhooks`))[0]?.enabled).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect((await apiGet<Webhook[]>(context, `${setup.server.url}/api/webhooks`))[0]?.enabled).toBe(true);
    await closeNotificationsAfter(page, `Webhook to ${url} enabled`);

    // Edit: the form opens with what the webhook has; a refused address is said under its field.
    await page.getByRole('button', { name: `More actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    const address = edit.getByRole('textbox', { name: 'Address' });
    expect(await address.inputValue()).toBe(url);
    expect(await edit.getByRole('checkbox', { name: 'publish.done', exact: true }).isChecked()).toBe(true);
    await address.fill('ftp://archive.example.com/in');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(/^Only http and https addresses/).waitFor();
    await address.fill(url);
    await edit.getByRole('textbox', { name: 'Description' }).fill('Archive and newsroom');
    await edit.getByRole('checkbox', { name: 'All Users events' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Archive and newsroom');
    expect(await row.textContent()).toContain('7 events');
    await closeNotificationsAfter(page, `Webhook to ${url} saved`);

    // Rotate secret, after a confirmation: a new one shown once; the next ping is signed with it only.
    await page.getByRole('button', { name: `More actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate secret' });
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    const rotated = (await page.getByTestId('webhook-secret-value').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await putSecretAway(page, rotated);
    await page.getByRole('button', { name: `Send test to ${url}` }).click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(4);
    const after = receiver.received[3] as Received;
    expect(signedWith(rotated, after)).toBe(true);
    expect(signedWith(secret, after)).toBe(false);

    // Remove, after a confirmation (the test's notification, over the row's end, closed first).
    await closeNotificationsAfter(page, 'Test delivery sent');
    await page.getByRole('button', { name: `Remove the webhook to ${url}` }).click();
    const remove = page.getByRole('dialog', { name: 'Remove webhook' });
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByTestId('webhooks-empty').waitFor();
    expect(await apiGet<Webhook[]>(context, `${setup.server.url}/api/webhooks`)).toEqual([]);
    await context.close();
  });

  it("lets an account's manager create a webhook on its Integrations page, which its other users and the cloud page are not for", async () => {
    const { context, page } = await newPage(setup.browser);
    await signedIn(page, setup.server.url, 'evening-news.manager');
    await page.goto(`${setup.server.url}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL(`${setup.server.url}/accounts/evening-news/integrations`);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByTestId('webhooks-empty').waitFor();
    const url = `${receiver.url}/evening-news`;
    const secret = await createWebhook(page, {
      url,
      description: 'Newsroom',
      groups: ['Media'],
      events: [],
    });
    const row = page.getByTestId('webhooks').locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('4 events');
    // The deliveries of the new webhook are open, empty.
    await page.getByRole('heading', { name: `Deliveries to ${url}` }).waitFor();
    await page.getByTestId('webhook-deliveries').getByTestId('data-table-empty').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await closeNotifications(page);
    await screenshots(page, 'account-integrations');
    await putSecretAway(page, secret);
    const account = await apiGet<{ id: number }>(
      context,
      `${setup.server.url}/api/accounts/byName/evening-news`,
    );
    const listed = await apiGet<Webhook[]>(
      context,
      `${setup.server.url}/api/accounts/${account.id}/webhooks`,
    );
    expect(listed.map((webhook) => [webhook.url, webhook.accountId])).toEqual([[url, account.id]]);

    // The cloud's page is the administrators'.
    await page.goto(`${setup.server.url}/admin/webhooks`);
    await page.getByTestId('not-for-role').waitFor();
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await context.close();

    // The account's other users see neither the way there nor the page.
    const viewer = await newPage(setup.browser);
    await signedIn(viewer.page, setup.server.url, 'evening-news.viewer');
    await viewer.page.goto(`${setup.server.url}/accounts/evening-news/integrations`);
    await viewer.page.getByTestId('not-for-role').waitFor();
    await viewer.page.goto(`${setup.server.url}/accounts/evening-news/`);
    await viewer.page.getByRole('heading', { name: 'evening-news' }).waitFor();
    expect(await viewer.page.getByRole('link', { name: 'Integrations' }).count()).toBe(0);
    await viewer.context.close();
  });
});
