import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';
import type { AppContext } from '../src/platform/context.ts';
import { createContext } from '../src/platform/start.ts';
import {
  grantAccountAccess,
  grantManagerOf,
  makeAccount,
  makeReseller,
  makeSite,
  makeSiteGroup,
  makeUser,
} from '../src/seed/factories.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of an embedded database with every migration applied: each test file opens a copy of it. */
    pgliteTemplate: string | undefined;
    /** A PostgreSQL database with every migration applied: each test file's database is made from it. */
    postgresTemplate: string | undefined;
  }
}

export const ADMIN_TEST_PASSWORD = 'Adm1n-Secret!';

/** Which database the integration tests run on: PGlite, or PostgreSQL when TEST_DB=postgres and DATABASE_URL is set. */
export const testDriver = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' && process.env.DATABASE_URL ? 'postgres' : 'pglite';

const createFreshPostgresDatabase = () =>
  createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'test', inject('postgresTemplate'));

/** The answer envelopes of DESIGN.md, as tests read them. */
export type Results<T> = { results: T };
export type Collection<T> = { results: T[]; total: number; channel: string };
export type ErrorBody = { error: { message: string; code: string; fields?: Record<string, string> } };

export type TestResponse<T = unknown> = {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
};

/** A browser-like client: keeps cookies and sends the anti-forgery header on writes. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly config: Config,
  ) {}

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now()))
        this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  get csrfToken() {
    return this.cookies.get(this.config.csrfCookieName);
  }

  async request<T = unknown>(options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    body?: unknown;
    headers?: Record<string, string>;
    csrf?: boolean;
    remoteAddress?: string;
  }): Promise<TestResponse<T>> {
    if (options.method !== 'GET' && options.csrf !== false && !this.csrfToken) {
      this.remember(await this.app.inject({ method: 'GET', url: '/config/apiVersions.json' }));
      this.remember(await this.app.inject({ method: 'GET', url: '/api/passwordRules' }));
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.method !== 'GET' && options.csrf !== false && this.csrfToken)
      headers[this.config.csrfHeaderName] = this.csrfToken;
    const response = await this.app.inject({
      method: options.method,
      url: options.url,
      headers,
      cookies: Object.fromEntries(this.cookies),
      remoteAddress: options.remoteAddress,
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    this.remember(response);
    const text = response.body;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body: body as T, headers: response.headers, raw: response };
  }

  get<T = unknown>(url: string, headers?: Record<string, string>) {
    return this.request<T>({ method: 'GET', url, headers });
  }

  post<T = unknown>(
    url: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
  ) {
    return this.request<T>({ method: 'POST', url, body: body ?? {}, ...extra });
  }

  async signIn(username: string, password: string, mfaCode?: string) {
    const response = await this.post<{ results: { status: string; error: string } }>('/api/login', {
      username,
      password,
      ...(mfaCode ? { mfaCode } : {}),
    });
    if (response.body.results?.status !== 'valid') {
      throw new Error(`sign-in of ${username} failed: ${JSON.stringify(response.body)}`);
    }
    return this;
  }
}

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  driver: 'pglite' | 'postgres';
  /** Every log line the server wrote. */
  logs: () => string;
  client: () => TestClient;
  /** A client signed in as `admin`. */
  admin: () => Promise<TestClient>;
  close: () => Promise<void>;
};

/** Builds the app on a fresh database (in-memory PGlite, or a new PostgreSQL database) and a fresh DATA_DIR. */
export const buildTestApp = async (env: Record<string, string> = {}): Promise<TestApp> => {
  const driver = testDriver();
  const fresh = driver === 'postgres' ? await createFreshPostgresDatabase() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: ADMIN_TEST_PASSWORD,
    LOG_LEVEL: 'info',
    LOCAL_EDGE: '0',
    PUBLIC_URL: 'http://media.test',
    // A file's sessions sign in once and may run past 5 minutes on a loaded machine; reauth.test.ts shortens it.
    REAUTH_WINDOW_SECONDS: '3600',
    ...(fresh ? { DATABASE_URL: fresh.url } : {}),
    ...env,
  });
  config.webDist = path.join(import.meta.dirname, 'fixtures', 'web');
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const { ctx } = await createContext(config, {
    logStream,
    // On PGlite, a copy of the run's migrated template (test/pglite-template.ts) instead of a new database.
    database: { inMemory: true, poolSize: 4, template: inject('pgliteTemplate') },
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    config,
    driver,
    logs: () => lines.join(''),
    client: () => new TestClient(app, config),
    admin: () => new TestClient(app, config).signIn('admin', ADMIN_TEST_PASSWORD),
    close: async () => {
      await app.close();
      await ctx.close();
      await fresh?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Waits for a condition that another part of the server fulfils in the background (a mail file, say). */
export const eventually = async <T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The mails the server wrote to DATA_DIR/mail, oldest first. */
export const readMails = (config: Config) => {
  const folder = path.join(config.dataDir, 'mail');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => fs.readFileSync(path.join(folder, f), 'utf8'));
};

/** A new user, given what `grant` gives, signed in. */
export const signedInUser = async (t: TestApp, grant?: (userId: number) => Promise<void>) => {
  const user = await makeUser(t.ctx.db);
  await grant?.(user.id);
  return { user, client: await t.client().signIn(user.username, user.password as string) };
};

/**
 * A second instance on the PostgreSQL database of `a` (its own pool, bus and caches), and a client of it
 * that carries the cookies of a client of `a`: the same person's session, served by the other instance.
 */
export const buildSecondInstance = async (a: TestApp) => {
  const config = loadConfig({
    DATABASE_URL: a.config.databaseUrl,
    DATA_DIR: a.config.dataDir,
    LOG_LEVEL: 'silent',
  });
  config.webDist = a.config.webDist;
  const { ctx } = await createContext(config, {
    logStream: new Writable({ write: (_c, _e, done) => done() }),
    database: { poolSize: 2 },
  });
  const app = await buildApp(ctx);
  return {
    app,
    ctx,
    clientLike: (client: TestClient) => {
      const other = new TestClient(app, ctx.config);
      for (const [name, value] of client.cookies) other.cookies.set(name, value);
      return other;
    },
    close: async () => {
      await app.close();
      await ctx.close();
    },
  };
};

/**
 * A small organisation for route tests: one reseller → site group → site with two accounts, a second
 * site elsewhere, and a signed-in client for each level of rights.
 */
export const makeWorld = async (t: TestApp) => {
  const { db } = t.ctx;
  const reseller = await makeReseller(db);
  const siteGroup = await makeSiteGroup(db, { resellerId: reseller.id });
  const site = await makeSite(db, { siteGroupId: siteGroup.id });
  const account = await makeAccount(db, {
    siteId: site.id,
    contactName: 'Ann Contact',
    contactEmail: 'ann@example.com',
  });
  const siblingAccount = await makeAccount(db, { siteId: site.id });
  const otherSite = await makeSite(db);
  const otherAccount = await makeAccount(db, { siteId: otherSite.id });
  const signedIn = (grant: (userId: number) => Promise<void>) => signedInUser(t, grant);
  const levels = {
    admin: { user: undefined, client: await t.admin() },
    resellerManager: await signedIn((id) => grantManagerOf(db, id, 'reseller', reseller.id)),
    siteGroupManager: await signedIn((id) => grantManagerOf(db, id, 'sitegroup', siteGroup.id)),
    siteManager: await signedIn((id) => grantManagerOf(db, id, 'site', site.id)),
    accountManager: await signedIn((id) => grantAccountAccess(db, id, account.id, 'Account Manager')),
    editor: await signedIn((id) => grantAccountAccess(db, id, account.id, 'Editor')),
    outsider: await signedIn(async () => {}),
  };
  return { reseller, siteGroup, site, account, siblingAccount, otherSite, otherAccount, ...levels };
};
export type World = Awaited<ReturnType<typeof makeWorld>>;

/** The mails as plain text: quoted-printable soft line breaks joined and '=3D' read as '='. */
export const readMailTexts = (config: Config) =>
  readMails(config).map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));

const TOTP_PERIOD_SECONDS = 30;
const lastTotpStep = new Map<string, number>();

/**
 * A TOTP code the server has not seen yet: the server accepts each time step once (no replay) and
 * allows one step of clock drift, so a second code in the same 30 s comes from the next step, and a
 * third waits for the clock.
 */
export const freshTotp = async (secret: string) => {
  const currentStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);
  const last = lastTotpStep.get(secret);
  let step = last === undefined ? currentStep() : Math.max(currentStep(), last + 1);
  while (step > currentStep() + 1) await new Promise((resolve) => setTimeout(resolve, 250));
  step = Math.max(step, currentStep());
  lastTotpStep.set(secret, step);
  return generate({ secret, epoch: step * TOTP_PERIOD_SECONDS });
};

/** A multipart/form-data body with one file part, as a browser's upload sends it. */
export const multipartFile = (options: {
  field?: string;
  fileName: string;
  content: string | Buffer;
  type?: string;
}) => {
  const boundary = `----media-test-${Math.random().toString(36).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'uploadfile'}"; filename="${options.fileName}"\r\nContent-Type: ${options.type ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    body: Buffer.concat([
      Buffer.from(head),
      Buffer.from(options.content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

export type LoginBody = { results: { status: string; error: string } };

let addressCounter = 0;
/** A client address no other test of the file uses, so failures from one test never lock another. */
export const freshAddress = () => {
  addressCounter += 1;
  return `10.${Math.floor(addressCounter / 250)}.${addressCounter % 250}.7`;
};

/** `POST /api/login` from its own client address (or the one given). */
export const login = (
  client: TestClient,
  body: { username: string; password: string; mfaCode?: string },
  remoteAddress = freshAddress(),
) => client.post<LoginBody>('/api/login', body, { remoteAddress });

export const sessionCookie = (response: TestResponse) =>
  response.raw.cookies.find((c) => c.name === 'sessionid');
