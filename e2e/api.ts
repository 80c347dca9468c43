import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The results of a GET made beside the page with its session (200 expected). */
export const apiGet = async <T>(
  context: BrowserContext,
  url: string,
  headers: Record<string, string> = {},
) => {
  const response = await context.request.get(url, { headers });
  expect(response.status(), url).toBe(200);
  return ((await response.json()) as { results: T }).results;
};

/** The anti-forgery header of an API write made beside the page. */
export const csrf = async (context: BrowserContext) => {
  const token = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return { 'x-csrftoken': decodeURIComponent(token) };
};

/** Closes the notifications, so the screenshots show the page under them. */
export const closeNotifications = async (page: Page) => {
  const close = page.locator('.mantine-Notification-root button');
  for (let round = 0; round < 20 && (await close.count()) > 0; round += 1) {
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
    await page.waitForTimeout(250);
  }
};
