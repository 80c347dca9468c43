import { TOTAL_COUNT_CAP } from '@media/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNodeRow } from '../src/seed/node-factories.ts';
import { buildTestApp, makeWorld, type TestApp, testDriver, type World } from './harness.ts';
import { listNodes } from './nodes-world.ts';

/** More takes than the cap: the broad search's total is capped, narrower ones are exact. */
const TAKES = TOTAL_COUNT_CAP + 50;
/** How many of the names 'take 1' … 'take N' contain 'take 1' (take 1, 10–19, 100–199 …). */
const TAKE_1_MATCHES = Array.from({ length: TAKES }, (_, i) => `take ${i + 1}`).filter((name) =>
  name.includes('take 1'),
).length;

describe(`media search totals beyond the count cap (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  const p = (inner = '') => `/${w.account.name}${inner}`;
  const search = (value: string, extra: Record<string, string | number> = {}) =>
    listNodes(w.accountManager.client, {
      path: p(),
      search: JSON.stringify({ key: 'name', value }),
      ...extra,
    });

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    const folder = await makeNodeRow(t.ctx.db, { accountId: w.account.id, name: 'Reels' });
    // One set-based insert: 'Take 1' … 'Take 1050', one second apart (Take 1 the newest); the newest 50 on
    // 2 January, the other 1,000 (the cap) on 1 January.
    await t.ctx.db.execute(sql`insert into nodes (account_id, parent_id, path, name, type, created_at, here_at)
      select ${w.account.id}, ${folder.id}, '/Reels/Take ' || g, 'Take ' || g, 'source', at, at
      from generate_series(1, ${TAKES}) g cross join lateral (select case when g <= ${TAKES - TOTAL_COUNT_CAP}
        then timestamptz '2026-01-02 12:00Z' else timestamptz '2026-01-01 12:00Z' end
        - make_interval(secs => g) as at) created`);
  }, 60_000);
  afterAll(() => t.close());

  it('caps the total of a search matching more than the cap, and says so', async () => {
    const answer = await search('take');
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(TOTAL_COUNT_CAP);
    expect(answer.body.totalCapped).toBe(true);
    expect(answer.body.results.children).toHaveLength(100);
    expect(answer.body.results.children[0]?.name).toBe('Take 1');
    expect(answer.body.results.nextChildOffset).toBe(100);
  });

  it('counts a search matching fewer than the cap exactly', async () => {
    const answer = await search('take 1');
    expect(answer.body.total).toBe(TAKE_1_MATCHES);
    expect(answer.body.totalCapped).toBe(false);
    const one = await search('take 471');
    expect(one.body.total).toBe(1);
    expect(one.body.totalCapped).toBe(false);
    expect(one.body.results.nextChildOffset).toBeNull();
  });

  it('counts a match set of exactly the cap exactly, and one more as capped', async () => {
    const exact = await search('take', { createdTo: '2026-01-01' });
    expect(exact.body.total).toBe(TOTAL_COUNT_CAP);
    expect(exact.body.totalCapped).toBe(false);
    const capped = await search('take', { createdTo: '2026-01-02' });
    expect(capped.body.total).toBe(TOTAL_COUNT_CAP);
    expect(capped.body.totalCapped).toBe(true);
  });

  it('pages on past the cap, and the last page tells the exact total', async () => {
    const beyond = await search('take', { nextChildOffset: TOTAL_COUNT_CAP - 100 });
    expect(beyond.body.results.children).toHaveLength(100);
    expect(beyond.body.results.nextChildOffset).toBe(TOTAL_COUNT_CAP);
    expect(beyond.body.totalCapped).toBe(true);
    expect(beyond.body.total).toBeGreaterThanOrEqual(TOTAL_COUNT_CAP);
    const last = await search('take', { nextChildOffset: TOTAL_COUNT_CAP });
    expect(last.body.results.children).toHaveLength(TAKES - TOTAL_COUNT_CAP);
    expect(last.body.results.nextChildOffset).toBeNull();
    expect(last.body.total).toBe(TAKES);
    expect(last.body.totalCapped).toBe(false);
  });

  it("caps a filtered folder listing too, and keeps an unfiltered folder's exact child count", async () => {
    const filtered = await listNodes(w.accountManager.client, { path: p('/Reels'), childFilter: 'take' });
    expect(filtered.body.total).toBe(TOTAL_COUNT_CAP);
    expect(filtered.body.totalCapped).toBe(true);
    const all = await listNodes(w.accountManager.client, { path: p('/Reels') });
    expect(all.body.total).toBe(TAKES);
    expect(all.body.totalCapped).toBe(false);
    expect(all.body.results.nextChildOffset).toBe(100);
  });

  it('samples a thousand search texts for the planner, so a rare term is not taken for a common one', async () => {
    // Migration 0031: with the default hundred, 2–6 in a hundred number searches among 1M nodes walked the
    // whole account (0.5–0.9 s, bench nodes) instead of using the trigram index.
    const result = await t.ctx.db.execute(sql`select attstattarget::int as target from pg_attribute
      where attrelid = 'nodes'::regclass and attname = 'search_text'`);
    expect((result as unknown as { rows: { target: number }[] }).rows).toEqual([{ target: 1000 }]);
  });
});
