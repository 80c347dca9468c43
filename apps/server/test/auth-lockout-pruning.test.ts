import { LOGIN_FAILURE_WINDOW_MINUTES } from '@media/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_FAILURE_PRUNE_INTERVAL_MS, pruneLoginFailures } from '../src/modules/auth/service.ts';
import { loginFailures } from '../src/modules/auth/tables.ts';
import { buildTestApp, eventually, type TestApp, testDriver } from './harness.ts';

/** Sign-in failure rows are forgotten once their window has passed (auth-lockout.test.ts tests the locks). */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe(`sign-in failures pruned (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('forgets failures whose window has passed and ended locks, in bounded batches, keeping the rest', async () => {
    const db = t.ctx.db;
    const stale = Array.from({ length: 2500 }, (_, i) => ({
      kind: 'user' as const,
      key: `prune-stale-${i} from 10.200.0.1`,
      failures: 1,
      firstFailureAt: minutesAgo(LOGIN_FAILURE_WINDOW_MINUTES + 5),
    }));
    for (let i = 0; i < stale.length; i += 500)
      await db.insert(loginFailures).values(stale.slice(i, i + 500));
    await db.insert(loginFailures).values([
      {
        kind: 'user',
        key: 'prune-lock-ended from 10.200.0.1',
        failures: 5,
        firstFailureAt: minutesAgo(40),
        lockedUntil: minutesAgo(10),
      },
      { kind: 'ip', key: 'prune-old-address', failures: 3, firstFailureAt: minutesAgo(60) },
      { kind: 'user', key: 'prune-recent from 10.200.0.1', failures: 2, firstFailureAt: minutesAgo(1) },
      {
        kind: 'user',
        key: 'prune-locked from 10.200.0.1',
        failures: 5,
        firstFailureAt: minutesAgo(LOGIN_FAILURE_WINDOW_MINUTES + 5),
        lockedUntil: new Date(Date.now() + 60_000),
      },
    ]);
    expect(await pruneLoginFailures(db)).toBeGreaterThanOrEqual(2502);
    const left = await db
      .select({ key: loginFailures.key })
      .from(loginFailures)
      .where(like(loginFailures.key, 'prune-%'));
    expect(left.map((r) => r.key).sort()).toEqual([
      'prune-locked from 10.200.0.1',
      'prune-recent from 10.200.0.1',
    ]);
  });
});

describe(`sign-in failures pruned on a timer (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // Only the pruning interval is faked; everything else keeps real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await buildTestApp();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  it('removes old failure rows every few minutes, without waiting for another failure', async () => {
    await t.ctx.db.insert(loginFailures).values([
      {
        kind: 'ip',
        key: 'timer-old',
        failures: 4,
        firstFailureAt: minutesAgo(LOGIN_FAILURE_WINDOW_MINUTES + 1),
      },
      { kind: 'ip', key: 'timer-new', failures: 1, firstFailureAt: new Date() },
    ]);
    vi.advanceTimersByTime(LOGIN_FAILURE_PRUNE_INTERVAL_MS);
    await eventually(async () => {
      const rows = await t.ctx.db
        .select({ key: loginFailures.key })
        .from(loginFailures)
        .where(and(eq(loginFailures.kind, 'ip'), like(loginFailures.key, 'timer-%')));
      return rows.length === 1 ? rows : undefined;
    }).then((rows) => expect(rows.map((r) => r.key)).toEqual(['timer-new']));
  });
});
