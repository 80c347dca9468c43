import { describe, expect, it } from 'vitest';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshot,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

describe('notifications', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('arrives live, is counted in its tab and is acknowledged', async () => {
    const user = await newPage(setup.browser);
    await signIn(user.page, setup.server.url, 'archive.editor', E2E_DEMO_PASSWORD);
    await user.page.getByTestId('signed-in-user').waitFor();
    const me = (await (await user.page.request.get(`${setup.server.url}/api/me`)).json()) as {
      results: { id: number };
    };
    await user.page.getByRole('button', { name: 'Notifications (0)' }).waitFor();

    // An administrator, in another browser, resets the user's second factor.
    const admin = await newPage(setup.browser);
    await signIn(admin.page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await admin.page.getByTestId('signed-in-user').waitFor();
    const token = (await admin.context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const reset = await admin.page.request.post(`${setup.server.url}/api/users/${me.results.id}/mfa/reset`, {
      data: {},
      headers: { 'X-CSRFToken': token },
    });
    expect(reset.status()).toBe(200);

    const bell = user.page.getByRole('button', { name: 'Notifications (1)' });
    await bell.waitFor({ timeout: 10_000 });
    await bell.click();
    await expect.poll(() => user.page.getByTestId('tab-count-Warning').textContent()).toBe('1');
    expect(await user.page.getByTestId('tab-count-Problems').textContent()).toBe('0');
    await user.page
      .getByRole('tabpanel')
      .getByText('Your second factor was reset by an administrator.')
      .waitFor();
    await screenshot(user.page, 'notifications-popover');
    await user.page.getByRole('button', { name: 'Acknowledge' }).click();
    await user.page.getByRole('button', { name: 'Notifications (0)' }).waitFor();
    const list = (await (
      await user.page.request.get(`${setup.server.url}/api/users/${me.results.id}/notifications`)
    ).json()) as { total: number };
    expect(list.total).toBe(0);
    await user.context.close();
    await admin.context.close();
  });

  it('turns email notifications on from the user settings', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'archive.logger', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    const checkbox = page.getByLabel('Enable Email Notifications');
    await checkbox.waitFor();
    expect(await checkbox.isChecked()).toBe(false);
    await checkbox.check();
    await page.getByText('Your email notification settings have successfully been updated').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Enable Email Notifications').isChecked()).toBe(true);
    await context.close();
  });
});
