import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ERROR_CODES, INGEST_STATUSES, PLAYER_MESSAGES } from '@media/contract';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type FrameLocator,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { SERVER_BUNDLE } from '../scripts/build-server.mjs';
import { E2E_ADMIN_PASSWORD, E2E_DEMO_PASSWORD } from './data-template.ts';

const root = path.resolve(import.meta.dirname, '..');
export const SCREENSHOTS = path.join(root, 'e2e/screenshots');
export { E2E_ADMIN_PASSWORD, E2E_DEMO_PASSWORD };

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A port free now on 127.0.0.1 (for a server whose address another process must know before it starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

export type RunningServer = { url: string; dataDir: string; output: () => string; stop: () => Promise<void> };

/**
 * A fresh DATA_DIR: a copy of the run's migrated one (data-template.ts), so that a server's start does not
 * repeat initdb and the migrations (empty when the run has no template); with the demo data set loaded for a
 * server started with it (SEED_DEMO=1, and DEMO_PASSWORD unset or E2E_DEMO_PASSWORD).
 */
const freshDataDir = (env: Record<string, string> = {}) => {
  fs.mkdirSync(path.join(root, 'e2e/.tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(root, 'e2e/.tmp/data-'));
  const withDemo =
    env.SEED_DEMO === '1' && (env.DEMO_PASSWORD === undefined || env.DEMO_PASSWORD === E2E_DEMO_PASSWORD);
  const template = inject(withDemo ? 'e2eDemoDataTemplate' : 'e2eDataTemplate');
  if (template) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
};

/**
 * A DATA_DIR without the demo data set, for a server started with SEED_DEMO=1 that must load it itself: the
 * demo's London edge server counts as connected for a while after the loading (it was seen then), which the
 * run's demo template, loaded minutes before, is no longer.
 */
export const demoLoadedAtStart = async () => freshDataDir();

/**
 * Starts the server the `npm start` way (built web app and server, embedded database) on a fresh DATA_DIR, on
 * a free port or the `PORT` of `env`.
 */
export const startServer = async (
  env: Record<string, string> = {},
  existingDataDir?: string,
): Promise<RunningServer> => {
  const dataDir = existingDataDir ?? freshDataDir(env);
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let output = '';
  // The server's build, as `npm start` runs it (data-template.ts builds it when stale).
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOCAL_EDGE: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const url = `http://127.0.0.1:${port}`;
  // A machine busy with other work may start it slower: E2E_START_TIMEOUT_MS gives it longer.
  const until = Date.now() + (Number(process.env.E2E_START_TIMEOUT_MS) || 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/config/apiVersions.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

export const newPage = async (
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  return { context, page };
};

/**
 * Ids a page must not show a person (issue 18): a status's camelCase wire value, or a code of a kind in
 * brackets ('(not_found)'); the spec's own texts spell neither.
 */
const CAMEL_CASE_IDS = [...INGEST_STATUSES, 'missingFiles', 'pendingSettings'].filter((id) =>
  /[a-z][A-Z]/.test(id),
);
const BRACKETED_CODES = Object.values(ERROR_CODES).map((code) => `(${code})`);

/** What the page shows that is an id, not a word (empty when it speaks in words). */
export const idsOnScreen = async (page: Page) => {
  const text = await page.evaluate('document.body.innerText');
  const shown = String(text);
  return [
    ...CAMEL_CASE_IDS.filter((id) => new RegExp(`\\b${id}\\b`).test(shown)),
    ...BRACKETED_CODES.filter((code) => shown.includes(code)),
  ];
};

/**
 * Whether pictures are written (E2E_SCREENSHOTS=0: not, as in CI, where nobody looks at them and a full-page
 * picture costs the two cores up to a second; what a picture checks is checked all the same).
 */
const takePictures = process.env.E2E_SCREENSHOTS !== '0';

/** A full-page screenshot; every page pictured is checked for ids shown instead of words. */
export const screenshot = async (page: Page, name: string) => {
  expect(await idsOnScreen(page), `ids on screen in ${name}`).toEqual([]);
  if (!takePictures) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

/** Light and dark full-page screenshots of the page as it is now, taken from the top. */
export const screenshots = async (page: Page, name: string) => {
  if (!takePictures) return screenshot(page, name);
  // From the top, so the fixed header is not drawn half-way down a full-page picture.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.waitForTimeout(300);
  await screenshot(page, name);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
};

/** Picks an option of a Mantine select by its label. */
export const choose = async (page: Page, field: ReturnType<Page['getByLabel']>, option: string) => {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

/**
 * Records the Content-Security-Policy violations of a page and its frames: the browser reports each as a
 * `securitypolicyviolation` event (even a refused eval probe caught by the script), written to the console
 * here so that it reaches the test. Call before the page's first navigation.
 */
export const watchCspViolations = async (page: Page) => {
  const violations: string[] = [];
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI + ' at ' + event.sourceFile + ':' + event.lineNumber + ' on ' + location.pathname));`);
  page.on('console', (message) => {
    if (/CSP violation|Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return () => violations;
};

/** Signs in through the sign-in page. */
export const signIn = async (page: Page, baseUrl: string, username: string, password: string) => {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

/**
 * Clicks the shell's Sign out and waits for the sign-in page. If it never comes, the error names what the
 * page asked and heard after the click and where it ended (it timed out in CI under load, never by hand).
 */
export const signOut = async (page: Page) => {
  const heard: string[] = [];
  const started = Date.now();
  const note = (text: string) => heard.push(`${Date.now() - started} ms ${text}`);
  page.on('response', (r) => note(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`));
  page.on('requestfailed', (r) =>
    note(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`),
  );
  page.on('console', (m) => note(`console ${m.type()}: ${m.text()}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/).catch((error: Error) => {
    const report = `${error.message}\nafter the click:\n${heard.join('\n')}\nat ${page.url()}`;
    console.warn(`sign-out did not reach /login: ${report}`);
    throw new Error(report);
  });
};

/** Fills a fresh DATA_DIR's embedded database before the server starts there (large data sets). */
export const prepareDataDir = async (
  fill: (ctx: import('../apps/server/src/platform/context.ts').AppContext) => Promise<void>,
) => {
  const { loadConfig } = await import('../apps/server/src/platform/config.ts');
  const { createContext } = await import('../apps/server/src/platform/start.ts');
  const dataDir = freshDataDir();
  const { ctx } = await createContext(
    loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
  );
  await fill(ctx);
  await ctx.close();
  return dataDir;
};

/** Starts a server and Chromium before a file's tests and stops both after them. */
export const useServerAndBrowser = (env: Record<string, string> = {}, prepare?: () => Promise<string>) => {
  const setup = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    setup.server = await startServer(env, prepare ? await prepare() : undefined);
    setup.browser = await launchBrowser();
  });
  afterAll(async () => {
    await setup.browser?.close();
    await setup.server?.stop();
  });
  return setup;
};

/** Starts a player's `<video>` muted (autoplay rules allow that) and answers how to read its position. */
export const playMuted = async (video: Locator) => {
  await video.evaluate((element) => {
    const v = element as unknown as { muted: boolean; play: () => Promise<void> };
    v.muted = true;
    return v.play();
  });
  return () => video.evaluate((element) => (element as unknown as { currentTime: number }).currentTime);
};

/**
 * Cuts a clip in the open floating player (its frame given): paused, in at `from` and out at `to` seconds,
 * exported under `name`; the player is closed and the clip's node waited for in the folder shown.
 */
export const cutClip = async (
  page: Page,
  frame: FrameLocator,
  clip: { from: number; to: number; name: string },
) => {
  const video = frame.getByTestId('player-video');
  const seek = (seconds: number) =>
    video.evaluate((element, at) => {
      (element as unknown as { currentTime: number }).currentTime = at;
    }, seconds);
  await video.evaluate((element) => (element as unknown as { pause: () => void }).pause());
  await seek(clip.from);
  await frame.getByRole('button', { name: PLAYER_MESSAGES.markIn }).click();
  await seek(clip.to);
  await frame.getByRole('button', { name: PLAYER_MESSAGES.markOut }).click();
  await page.getByRole('button', { name: PLAYER_MESSAGES.exportButton }).click();
  const dialog = page.getByTestId('clip-naming-dialog');
  await dialog.waitFor();
  await dialog.getByRole('textbox').fill(clip.name);
  await dialog.getByRole('button', { name: PLAYER_MESSAGES.clipButton }).click();
  await dialog.waitFor({ state: 'hidden' });
  // The saved clip's notification sits over the player's Close button, and a pointer over it holds it open:
  // it is closed first (it may also have gone by itself meanwhile).
  const saved = page.locator('.mantine-Notification-root').filter({ hasText: clip.name });
  await saved.waitFor({ timeout: 10_000 }).catch(() => undefined);
  await saved
    .locator('.mantine-Notification-closeButton')
    .click({ timeout: 5000 })
    .catch(() => undefined);
  // Away from the notifications, so that one shown meanwhile (the clip rendered) closes on its own time.
  await page.mouse.move(0, 0);
  await saved.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: PLAYER_MESSAGES.close }).first().click();
  await page.getByRole('button', { name: clip.name, exact: true }).waitFor();
};
