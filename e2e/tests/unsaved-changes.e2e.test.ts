import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, newPage, screenshot, signIn, useServerAndBrowser } from '../harness.ts';

describe('unsaved changes (password rules page)', () => {
  const setup = useServerAndBrowser();

  it('warns before leaving with unsaved changes, in the app and on unload, and not after saving', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Password rules' }).click();
    const minLength = page.getByLabel('Minimum length value');
    await minLength.waitFor();
    await minLength.fill('12');
    await expect.poll(() => page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);

    await page.getByRole('link', { name: 'Home' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You have unsaved changes. Leave this page and lose them?').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'unsaved-changes-warning');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/passwordRules');
    expect(await minLength.inputValue()).toBe('12');

    const unloadPage = await context.newPage();
    await unloadPage.goto(`${setup.server.url}/admin/passwordRules`);
    await unloadPage.getByLabel('Minimum digits value').fill('3');
    await unloadPage.waitForTimeout(300);
    const unloadDialog = new Promise<string>((resolve) =>
      unloadPage.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }),
    );
    await unloadPage.close({ runBeforeUnload: true });
    expect(await unloadDialog).toBe('beforeunload');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes saved').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    const rules = await (await page.request.get(`${setup.server.url}/api/passwordRules`)).json();
    expect(rules.results.min_length).toEqual({ enabled: true, value: 12 });
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${setup.server.url}/`);
    await context.close();
  });
});
