import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/seed/demo.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

type Collection<T> = { results: T[]; total: number };
const DEMO_PASSWORD = 'Demo-Passw0rd!';

describe(`demo data (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemo(t.ctx.db, DEMO_PASSWORD);
  });
  afterAll(() => t.close());

  it('gives every account page something to show: users, invites, sessions, workflows', async () => {
    const manager = await t.client().signIn('evening-news.manager', DEMO_PASSWORD);
    const [account] = (await manager.get<Collection<{ id: number; name: string }>>('/api/accounts')).body
      .results;
    expect(account?.name).toBe('evening-news');
    for (const list of ['userAccess', 'invites', 'sessions', 'workflows']) {
      const page = await manager.get<Collection<unknown>>(`/api/accounts/${account?.id}/${list}`);
      expect(page.status, list).toBe(200);
      expect(page.body.total, list).toBeGreaterThan(0);
    }
  });

  it('is loaded once: a second run adds nothing', async () => {
    expect(await seedDemo(t.ctx.db, DEMO_PASSWORD)).toBeUndefined();
  });
});
