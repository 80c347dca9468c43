/**
 * Fuzz of every operation of `/api/openapi.json` (issue 12, finding 5; DESIGN "HTTP conventions"): malformed
 * bodies, queries and path values generated from each operation's own schemas must answer a 4xx, never a
 * 5xx, and must leave the data as it was. Requests go as the administrator (signed in, with the
 * anti-forgery token) and, fewer of them, anonymously.
 *
 * Every generated input is malformed by construction: a string holding NUL, a value of the wrong JSON type,
 * a number or text outside its declared bounds (and integers beyond the columns' range: ids past int4,
 * anything past int8), an unknown field in a strict object, junk where a path or query value goes, a deep
 * junk structure or a body that is not JSON. Bodies are sent only to operations that declare one, with
 * path values that name existing rows (1), so validation is what stops them, not a missing row.
 *
 * `FUZZ_RUNS` sets the generated cases per operation (default 10), `FUZZ_SEED` replays a failing run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/seed/demo.ts';
import {
  type FuzzRequest,
  fixedRequestsOf,
  type Operation,
  ops,
  requestsOf,
  SKIPPED,
  send,
} from './fuzz-requests.ts';
import { buildTestApp, type TestApp, type TestClient, testDriver } from './harness.ts';
import { BOOKKEEPING_TABLES, changedTables, fingerprint as tableFingerprint } from './table-fingerprint.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

// ---- the tests ------------------------------------------------------------------------------------------

describe(`fuzz of every operation (${testDriver()})`, () => {
  let t: TestApp;
  let operations: Operation[];

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '10000000' });
    // Without a data directory the demo's media tree is made without files (no ffmpeg needed).
    await seedDemo(t.ctx.db, 'Demo-Passw0rd!');
    const doc = await t.client().get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    operations = ops(doc.body).filter((op) => !SKIPPED.has(`${op.method} ${op.path}`));
  });
  afterAll(() => t.close());
  const fingerprint = () => tableFingerprint(t, BOOKKEEPING_TABLES);

  const fuzz = async (client: TestClient, runs: number) => {
    const problems: string[] = [];
    let before = await fingerprint();
    for (const op of operations) {
      const name = `${op.method} ${op.path}`;
      // Malformed input may be taken as a change of nothing (2xx); these are the suspects if the data moved.
      const accepted: string[] = [];
      const check = async (request: FuzzRequest) => {
        const response = await send(client, op, request);
        if (response.status < 300) accepted.push(request.what);
        if (response.status >= 500) {
          problems.push(
            `${name} — ${request.what}: ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`,
          );
          return false;
        }
        return true;
      };
      for (const request of fixedRequestsOf(op)) await check(request);
      await fc.check(fc.asyncProperty(requestsOf(op), check), {
        numRuns: runs,
        seed: SEED,
        endOnFailure: true,
      });
      const after = await fingerprint();
      const changed = changedTables(before, after);
      if (changed.length > 0)
        problems.push(`${name} changed ${changed.join(', ')}; accepted: ${accepted.slice(0, 5).join(' | ')}`);
      before = after;
    }
    return [...new Set(problems)];
  };

  it('answers malformed input to every operation, signed in as the administrator, with a 4xx and no change', async () => {
    const admin = await t.admin();
    const problems = await fuzz(admin, RUNS);
    expect(problems, `seed ${SEED}`).toEqual([]);
    // Still signed in: the requests were judged as the administrator's, not refused as anonymous ones.
    expect((await admin.get('/api/me')).status).toBe(200);
  }, 600_000);

  it('answers malformed input to every operation, anonymously, with a 4xx and no change', async () => {
    const problems = await fuzz(t.client(), Math.ceil(RUNS / 4));
    expect(problems, `seed ${SEED}`).toEqual([]);
  }, 600_000);
});
