import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import type { AppContext } from '../src/platform/context.ts';
import { createContext } from '../src/platform/start.ts';
import { buildTestApp, type TestApp, TestClient, testDriver } from './harness.ts';

// Several instances share one PostgreSQL database; PGlite is one process's database by design.
describe.skipIf(testDriver() !== 'postgres')('two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; ctx: AppContext };

  beforeAll(async () => {
    a = await buildTestApp();
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
    b = { app: await buildApp(ctx), ctx };
  });
  afterAll(async () => {
    await b.app.close();
    await b.ctx.close();
    await a.close();
  });

  it('serves a session signed in on instance A from instance B, and a sign-out on B ends it on A', async () => {
    const onA = await a.admin();
    const onB = new TestClient(b.app, b.ctx.config);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const me = await onB.get<{ results: { username: string } }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.username).toBe('admin');
    expect((await onB.post('/api/logout')).status).toBe(200);
    expect((await onA.get('/api/me')).status).toBe(401);
  });

  it('shares the anti-forgery key, so a token issued by A is accepted by B', async () => {
    expect(b.ctx.secretKey).toBe(a.ctx.secretKey);
  });
});
