import { SUBTITLE_MESSAGES } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { closeNotifications } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const SRT = '1\n00:00:00,500 --> 00:00:02,000\nGood evening\n';

/** A media node's subtitles, in its metadata panel: upload a file per language, remove it. */
describe('subtitles of a media node', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('uploads English subtitles to a node, refuses a file that is not subtitles, and removes them', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(
      `${base}/accounts/evening-news/media?path=${encodeURIComponent('/evening-news/News/Today')}`,
    );
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
    await page
      .getByRole('list', { name: 'Children' })
      .getByRole('button', { name: 'Weather opener', exact: true })
      .click();
    const subtitles = page
      .getByRole('region', { name: 'Metadata' })
      .getByRole('region', { name: 'Subtitles' });
    const english = subtitles.locator('tr[data-language="en"]');
    await english.getByText('None').waitFor();

    const upload = async (name: string, content: string) => {
      const chooser = page.waitForEvent('filechooser');
      await english.getByRole('button', { name: 'Upload English subtitles' }).click();
      await (await chooser).setFiles({
        name,
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(content),
      });
    };
    await upload('notes.txt', 'not subtitles at all');
    await page.getByText(SUBTITLE_MESSAGES.notSubtitles).first().waitFor();
    await english.getByText('None').waitFor();

    await upload('weather.srt', SRT);
    await page.getByText(SUBTITLE_MESSAGES.saved('en')).first().waitFor();
    await english.getByText(`SubRip, ${SRT.length} bytes`).waitFor();
    expect(await subtitles.locator('tr[data-language="fr"]').getByText('None').count()).toBe(1);
    await closeNotifications(page);
    await screenshots(page, 'media-subtitles');

    await english.getByRole('button', { name: 'Remove English subtitles' }).click();
    await page
      .getByRole('dialog', { name: 'Remove subtitles' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText(SUBTITLE_MESSAGES.removed('en')).first().waitFor();
    await english.getByText('None').waitFor();
    await context.close();
  });
});
