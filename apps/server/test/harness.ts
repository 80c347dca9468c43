import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';
import type { AppContext } from '../src/platform/context.ts';
import { createContext } from '../src/platform/start.ts';

export const ADMIN_TEST_PASSWORD = 'Adm1n-Secret!';

/** Which database the integration tests run on: PGlite, or PostgreSQL when TEST_DB=postgres and DATABASE_URL is set. */
export const testDriver = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' && process.env.DATABASE_URL ? 'postgres' : 'pglite';

const createFreshPostgresDatabase = async () => {
  const base = process.env.DATABASE_URL as string;
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
};

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
  const { ctx } = await createContext(config, { logStream, database: { inMemory: true, poolSize: 4 } });
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
