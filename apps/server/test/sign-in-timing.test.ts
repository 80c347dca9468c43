import { LOGIN_MAX_FAILURES_PER_USER } from '@media/contract';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, freshAddress, login, type TestApp, testDriver } from './harness.ts';

// Counts the argon2 verifications the server does, to check that every refusal does exactly one.
const argon2Calls = vi.hoisted(() => ({ verify: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      argon2Calls.verify += 1;
      return original.verify(...args);
    },
  };
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

describe(`sign-in refusals take the same work (${testDriver()})`, () => {
  let t: TestApp;
  let attempts: Record<
    string,
    () => { username: string; password: string; mfaCode?: string; address?: string }
  >;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.ctx.db;
    const known = await makeUser(db);
    const withoutPassword = await makeUser(db, { password: null });
    const disabled = await makeUser(db, { disabled: true });
    attempts = {
      'wrong password': () => ({ username: known.username, password: 'Wrong-Passw0rd' }),
      'unknown user': () => ({ username: `nobody-${freshAddress()}`, password: 'Wrong-Passw0rd' }),
      'user without a password': () => ({ username: withoutPassword.username, password: 'Wrong-Passw0rd' }),
      'disabled user': () => ({ username: disabled.username, password: disabled.password as string }),
    };
  });
  afterAll(() => t.close());

  it('checks exactly one password hash for every refusal, whatever the reason', async () => {
    const db = t.ctx.db;
    const lockedUser = await makeUser(db);
    const lockedAddress = freshAddress();
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      await login(t.client(), { username: lockedUser.username, password: 'Wrong-1' }, lockedAddress);
    }
    const secret = generateSecret();
    const withMfa = await makeUser(db, { mfaSecret: secret });
    const wrongCode = String((Number(await generate({ secret })) + 1) % 1_000_000).padStart(6, '0');
    const classes: [string, { username: string; password: string; mfaCode?: string }, string?][] = [
      ...Object.entries(attempts).map(
        ([name, attempt]) => [name, attempt()] as [string, ReturnType<typeof attempt>],
      ),
      [
        'locked, right password',
        { username: lockedUser.username, password: lockedUser.password as string },
        lockedAddress,
      ],
      [
        'wrong second factor',
        { username: withMfa.username, password: withMfa.password as string, mfaCode: wrongCode },
      ],
    ];
    for (const [name, body, address] of classes) {
      const before = argon2Calls.verify;
      const response = await login(t.client(), body, address);
      expect(response.body.results.status, name).not.toBe('valid');
      expect(argon2Calls.verify - before, name).toBe(1);
    }
  });

  it('takes about as long for an unknown, password-less or disabled user as for a wrong password', async () => {
    const rounds = 15;
    const times: Record<string, number[]> = Object.fromEntries(
      Object.keys(attempts).map((name) => [name, []]),
    );
    // One warm-up round, then the classes interleaved, so a busy machine slows them all alike.
    for (let round = -1; round < rounds; round++) {
      for (const [name, attempt] of Object.entries(attempts)) {
        const client = t.client();
        await client.get('/api/passwordRules'); // its anti-forgery cookie, outside the measured call
        const started = performance.now();
        // A fresh address each time: the timing of refusals is measured, not lock-outs.
        const response = await login(client, attempt());
        const elapsed = performance.now() - started;
        expect(response.body.results.status, name).toBe('invalid');
        if (round >= 0) times[name]?.push(elapsed);
      }
    }
    const reference = median(times['wrong password'] ?? []);
    const ratios = Object.fromEntries(
      Object.entries(times).map(([name, list]) => [name, median(list) / reference]),
    );
    for (const [name, ratio] of Object.entries(ratios)) {
      expect(ratio, `${name}: ${JSON.stringify(ratios)}`).toBeGreaterThan(0.6);
      expect(ratio, `${name}: ${JSON.stringify(ratios)}`).toBeLessThan(1.6);
    }
  });
});
