import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LAYERS, METADATA_MESSAGES, MSG_GDPR_WARNING_TITLE } from '@media/contract';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications, csrf } from '../api.ts';
import { E2E_DEMO_PASSWORD, newPage, screenshots, signIn, useServerAndBrowser } from '../harness.ts';

describe('metadata import and export of an account', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('downloads xlsx and csv, imports an edited csv after a dry run, and says when nothing changes', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'london.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    // An editable column to change.
    const saved = await context.request.post(`${base}/api/accounts/${account.id}/fileColumns`, {
      headers: await csrf(context),
      data: {
        columns: [
          {
            displayName: 'Disk label',
            internalName: '_IMPORTDISKLAB',
            hidden: false,
            searchable: false,
            editable: false,
          },
          { displayName: 'Reel', internalName: 'reel', hidden: false, searchable: true, editable: true },
        ],
        autoInherit: false,
      },
    });
    expect(saved.status()).toBe(200);
    await page.getByTestId('home-account').getByRole('link', { name: 'evening-news' }).click();
    const section = page.locator('section#metadata-import-export');
    await section.getByRole('link', { name: 'Download csv' }).waitFor();

    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'metadata-e2e-'));
    // The first export loads exceljs in the server at first use: on a loaded two-core CI run (PostgreSQL files
    // beside the e2e files) no download came within 30 s once, where the whole test takes 5 s alone.
    const [xlsx] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      section.getByRole('link', { name: 'Download xlsx (Excel)' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toBe('evening-news metadata.xlsx');
    const xlsxFile = path.join(workDir, 'export.xlsx');
    await xlsx.saveAs(xlsxFile);
    // A zip (the XLSX container).
    expect(fs.readFileSync(xlsxFile).subarray(0, 2).toString()).toBe('PK');

    const [csvDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      section.getByRole('link', { name: 'Download csv' }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toBe('evening-news metadata.csv');
    const csvFile = path.join(workDir, 'export.csv');
    await csvDownload.saveAs(csvFile);
    const rows = Papa.parse<string[]>(fs.readFileSync(csvFile, 'utf8').replace(/^\uFEFF/, ''), {
      skipEmptyLines: true,
    }).data;
    expect(rows[0]).toEqual(['Id', 'Path', 'Name', 'Type', 'Disk label', 'Reel']);
    expect(rows.length).toBeGreaterThan(1);
    const target = rows[1] as string[];
    target[5] = 'Reel from the e2e test';
    const edited = path.join(workDir, 'edited.csv');
    fs.writeFileSync(edited, Papa.unparse(rows));

    // Choose the file: GDPR warning, dry run, the summary to confirm, the import.
    await section.getByLabel('Metadata CSV file').setInputFiles(edited);
    const gdpr = page.getByRole('dialog', { name: MSG_GDPR_WARNING_TITLE });
    await gdpr.getByRole('button', { name: 'I agree' }).click();
    const review = page.getByRole('dialog', { name: 'Metadata import' });
    await review.getByText(METADATA_MESSAGES.confirm).waitFor();
    await review.getByRole('cell', { name: 'Reel from the e2e test' }).waitFor();
    await review.getByText('1 field of 1 media node change').waitFor();
    // spec3 §9: a modal's backdrop at z-index 1040, its window at 1050.
    // (Of the review's own modal: the GDPR confirmation, stacked one above, may still be fading out.)
    const zIndexOf = (part: string) =>
      page.evaluate(
        `getComputedStyle([...document.querySelectorAll('.mantine-Modal-root')].find((root) => root.textContent.includes(${JSON.stringify(METADATA_MESSAGES.confirm)})).querySelector(${JSON.stringify(part)})).zIndex`,
      );
    expect(await zIndexOf('.mantine-Modal-overlay')).toBe(String(LAYERS.modalBackdrop));
    expect(await zIndexOf('.mantine-Modal-inner')).toBe(String(LAYERS.modalWindow));
    await screenshots(page, 'metadata-import-review');
    await review.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(METADATA_MESSAGES.complete).waitFor();
    await review.waitFor({ state: 'hidden' });
    const after = await context.request.get(
      `${base}/api/media?format=csv&accountId=${account.id}&metadata=reel`,
    );
    expect(await after.text()).toContain('Reel from the e2e test');

    // The same file again changes nothing; a file not named .csv asks first.
    await closeNotifications(page);
    const renamed = path.join(workDir, 'edited.txt');
    fs.copyFileSync(edited, renamed);
    await section.getByLabel('Metadata CSV file').setInputFiles(renamed);
    await page
      .getByRole('dialog', { name: MSG_GDPR_WARNING_TITLE })
      .getByRole('button', { name: 'I agree' })
      .click();
    await page
      .getByRole('dialog', { name: 'File Extension Warning' })
      .getByRole('button', { name: 'Import anyway' })
      .click();
    await page.getByText(METADATA_MESSAGES.noChanges).waitFor();
    expect(await section.getAttribute('data-import-state')).toBe(null);
    await expect
      .poll(() => section.locator('[data-import-state]').getAttribute('data-import-state'))
      .toBe('idle');
    await screenshots(page, 'metadata-import-export');
    fs.rmSync(workDir, { recursive: true, force: true });
  });
});
