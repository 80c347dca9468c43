import { describe, expect, it } from 'vitest';
import { loginFailures } from '../../apps/server/src/modules/auth/tables.ts';
import { E2E_ADMIN_PASSWORD, newPage, prepareDataDir, signIn, useServerAndBrowser } from '../harness.ts';

const ROWS = 10_000;

describe('DataTable with 10,000 rows', () => {
  const setup = useServerAndBrowser({}, () =>
    prepareDataDir(async (ctx) => {
      const until = new Date(Date.now() + 3_600_000);
      for (let start = 0; start < ROWS; start += 1000) {
        await ctx.db.insert(loginFailures).values(
          Array.from({ length: 1000 }, (_, i) => ({
            kind: 'user' as const,
            key: `bulk-${String(start + i).padStart(5, '0')}`,
            failures: 5,
            lockedUntil: until,
          })),
        );
      }
    }),
  );

  it('shows every row on one page, keeps only the visible rows in the page and scrolls to the last', {
    timeout: 180_000,
  }, async () => {
    const { context, page } = await newPage(setup.browser);
    // 10,000 rows travel and render once; give a loaded CI machine time.
    page.setDefaultTimeout(60_000);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Sign-in lock-outs' }).click();
    await page.getByRole('button', { name: /User name or address/ }).click();
    await page.getByLabel('Items per page').selectOption('All');
    await expect
      .poll(() => page.getByTestId('paginator-range').textContent(), { timeout: 30_000 })
      .toBe(`1–${ROWS} of ${ROWS}`);
    const rendered = await page.locator('tbody tr[data-row-id]').count();
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(100);

    // Scroll through the whole list; the page still holds only the rows in view (DESIGN.md: smooth scrolling
    // is a budget of bench/, not a timed test).
    await page.evaluate(`(async () => {
      const box = document.querySelector('[data-testid="data-table-scroll"]');
      for (let step = 0; step < 60; step++) {
        box.scrollTop = (box.scrollHeight / 60) * (step + 1);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    })()`);
    await page.locator('tbody tr[data-row-id="user:bulk-09999"]').waitFor();
    expect(await page.locator('tbody tr[data-row-id]').count()).toBeLessThan(100);
    await context.close();
  });
});
