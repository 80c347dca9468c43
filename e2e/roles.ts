import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { newPage, type RunningServer, screenshots, signIn } from './harness.ts';

/** What a page showed a signed-in person who reached it by its address. */
export type PageVisit = {
  address: string;
  /** The page said it is not for the person's role (or that it does not exist for them). */
  message: string | null;
  /** API answers that refused the page's own requests (401, 403) or failed (5xx). */
  refusals: string[];
  /** Notifications the page raised by itself. */
  toasts: string[];
  /** Buttons of the page's content (not the shell) a person can press. */
  buttons: string[];
  /** Fields of the page's content a person can type into or switch. */
  fields: string[];
  /** Serious and critical accessibility violations (axe-core), with the elements they were found on. */
  accessibility: string[];
};

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeResults = {
  violations: {
    id: string;
    impact: string | null;
    help: string;
    tags: string[];
    nodes: { target: string[]; html: string }[];
  }[];
};

/** axe-core's WCAG 2.1 A/AA rules on the page as it is: the serious and critical violations, in words. */
export const accessibilityViolations = async (page: Page) => {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const results = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })`,
  )) as AxeResults;
  return (
    results.violations
      // Experimental rules are outside axe's own default run (label-in-name misreads a tree item's children).
      .filter((violation) => !violation.tags.includes('experimental'))
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
            .slice(0, 3)
            .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
            .join(', ')}${violation.nodes.length > 3 ? ` and ${violation.nodes.length - 3} more` : ''}`,
      )
  );
};

/** Buttons that change something (not those that open, sort, page, filter or show). */
const WRITE_BUTTON =
  /^(Add|New |Delete|Remove|Edit|Save|Upload|Import|Clone|Create(?!d)|Invite|Unassign|Assign|Enable|Disable|Restart|Rescan|Force|Connect|Run|Set up|Choose|Folder permissions|Recycle Bin|Support connection|Actions for item)/;
/** Fields that only find, filter, page or pick what is shown. */
const VIEW_FIELD =
  /^(Items per page|Page|Search.*|Select (all|row .*)|Alphabetical|Time|Grid|List|Created (from|to)|Actor|Operation|Target type|Target id|In account|First day|Last day|Field|Value|All|Endpoints|Files|Streams|Unprocessed|Extended search|Folder priority first)$/;

/** The controls of a visited page that change something. */
export const writeControls = (visit: PageVisit) => [
  ...new Set([
    ...visit.buttons.filter((name) => WRITE_BUTTON.test(name) || name === 'Enabled'),
    ...visit.fields.filter((name) => !VIEW_FIELD.test(name)),
  ]),
];

/** Waits for the page's code and its first data: the page's content drawn and no loader left for a moment. */
const settle = async (page: Page) => {
  await page.waitForLoadState('load');
  await page.locator('main').waitFor();
  const loaders = page.locator('main [aria-label="Loading"], main .mantine-Loader-root, main [data-loading]');
  for (let quiet = 0, round = 0; quiet < 3 && round < 150; round += 1) {
    await page.waitForTimeout(100);
    quiet = (await loaders.count()) === 0 ? quiet + 1 : 0;
  }
};

/** The enabled controls inside the page's <main>, by their accessible names. */
const enabledControls = (page: Page) =>
  page.evaluate(`(() => {
    const main = document.querySelector('main');
    if (!main) return { buttons: [], fields: [] };
    const visible = (el) => el.getClientRects().length > 0;
    const nameOf = (el) => {
      const labelledBy = el.getAttribute('aria-labelledby');
      const byId = labelledBy ? labelledBy.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : '';
      const label = el.id ? document.querySelector('label[for="' + CSS.escape(el.id) + '"]')?.textContent ?? '' : '';
      return (el.getAttribute('aria-label') || byId || label || el.textContent || el.getAttribute('placeholder') || el.getAttribute('title') || '').replace(/\\s+/g, ' ').trim();
    };
    const buttons = [...main.querySelectorAll('button, [role="button"], [role="switch"], [role="menuitem"]')]
      .filter((el) => visible(el) && !el.disabled && el.getAttribute('aria-disabled') !== 'true' && el.getAttribute('data-disabled') !== 'true')
      .map(nameOf);
    const fields = [...main.querySelectorAll('input, textarea, select, [contenteditable="true"]')]
      .filter((el) => el.type !== 'hidden' && el.type !== 'file' && (visible(el) || el.type === 'checkbox' || el.type === 'radio') && !el.disabled && !el.readOnly)
      .map(nameOf);
    return { buttons, fields };
  })()`) as Promise<{ buttons: string[]; fields: string[] }>;

/** Signs in as the person and visits each address (filled with their own id) in turn. */
export const visitAsRole = async (
  setup: { server: RunningServer; browser: Browser },
  person: { username: string; password: string },
  addressesFor: (me: { id: number }) => string[],
  options: { screenshotsAs?: (address: string) => string } = {},
): Promise<PageVisit[]> => {
  const base = setup.server.url;
  const { context, page } = await newPage(setup.browser);
  await signIn(page, base, person.username, person.password);
  await page.getByTestId('signed-in-user').waitFor();
  const me = (await (await context.request.get(`${base}/api/me`)).json()) as { results: { id: number } };
  const visits: PageVisit[] = [];
  let current: PageVisit | undefined;
  page.on('response', (response) => {
    const url = new URL(response.url());
    const status = response.status();
    if (current && url.pathname.startsWith('/api/') && (status === 401 || status === 403 || status >= 500))
      current.refusals.push(`${response.request().method()} ${url.pathname}${url.search} ${status}`);
  });
  for (const address of addressesFor(me.results)) {
    current = {
      address,
      message: null,
      refusals: [],
      toasts: [],
      buttons: [],
      fields: [],
      accessibility: [],
    };
    await page.goto(`${base}${address}`);
    await settle(page);
    const visit = current;
    const message = page.locator('[data-testid="not-for-role"], [data-testid="not-found"] ');
    visit.message = (await message.count()) > 0 ? await message.first().textContent() : null;
    visit.toasts = await page.locator('.mantine-Notification-root').allInnerTexts();
    Object.assign(visit, await enabledControls(page));
    visit.accessibility = await accessibilityViolations(page);
    if (options.screenshotsAs) await screenshots(page, options.screenshotsAs(address));
    visits.push(visit);
  }
  current = undefined;
  await context.close();
  return visits;
};
