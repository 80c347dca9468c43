import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_PASSWORD_RULES, failedRules } from '@media/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrap, generatePassword } from '../src/bootstrap.ts';
import { roles } from '../src/modules/access/tables.ts';
import { columnSets } from '../src/modules/config/tables.ts';
import { passwordRules } from '../src/modules/passwords/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { verifyPassword } from '../src/platform/auth/password-hash.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { createContext } from '../src/platform/start.ts';
import { makeUser } from '../src/seed/factories.ts';
import { ADMIN_TEST_PASSWORD, testDriver } from './harness.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';

const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

describe(`first start and restart (${testDriver()})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-restart-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  // On PostgreSQL every buildTestApp migrates a fresh database; this test is about the embedded DATA_DIR/db.
  it.skipIf(testDriver() === 'postgres')(
    'creates the defaults once, and a restart migrates forward keeping every row',
    async () => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const first = await createContext(config, { logStream: quiet() });
      expect(first.outcome.createdAdmin).toBe(true);
      const generated = first.outcome.generatedAdminPassword as string;
      expect(generated.length).toBeGreaterThanOrEqual(12);
      expect(failedRules(generated, 'admin', DEFAULT_PASSWORD_RULES)).toEqual([]);
      const db1 = first.ctx.db;
      const [admin] = await db1.select().from(users).where(eq(users.username, 'admin'));
      expect(await verifyPassword(admin?.passwordHash ?? null, generated)).toBe(true);
      expect((await db1.select().from(roles)).map((r) => [r.name, r.isManager]).sort()).toEqual([
        ['Account Manager', true],
        ['Editor', false],
        ['Logger', false],
        ['Viewer', false],
      ]);
      const [cloudFile] = await db1.select().from(columnSets).where(eq(columnSets.kind, 'file'));
      expect(cloudFile?.columns.map((c) => c.internalName)).toEqual([
        '_IMPORTDISKLAB',
        'starttimecode',
        'endtimecode',
        'sourcelocator',
      ]);
      expect((await db1.select({ n: count() }).from(passwordRules))[0]?.n).toBe(6);
      const extra = await makeUser(db1, { username: 'kept.user' });
      await first.ctx.close();
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(true);

      const second = await createContext(
        loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'ignored-now' }),
        {
          logStream: quiet(),
        },
      );
      expect(second.outcome.createdAdmin).toBe(false);
      expect(second.outcome.generatedAdminPassword).toBeUndefined();
      expect(second.outcome.secretKey).toBe(first.outcome.secretKey);
      const db2 = second.ctx.db;
      const [adminAgain] = await db2.select().from(users).where(eq(users.username, 'admin'));
      expect(await verifyPassword(adminAgain?.passwordHash ?? null, generated)).toBe(true);
      const [kept] = await db2.select().from(users).where(eq(users.id, extra.id));
      expect(kept?.username).toBe('kept.user');
      expect((await db2.select({ n: count() }).from(roles))[0]?.n).toBe(4);
      await second.ctx.close();
    },
  );

  it('stops a first start whose ADMIN_PASSWORD breaks the password rules, naming the variable and the rule', async () => {
    const fresh =
      testDriver() === 'postgres'
        ? await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'restart')
        : undefined;
    const database = fresh
      ? await openDatabase({ driver: 'postgres', url: fresh.url, poolSize: 2 })
      : await openDatabase({ driver: 'pglite' });
    try {
      await database.migrate();
      const refusal = (adminPassword: string) =>
        bootstrap(database.db, { adminPassword }).then(
          () => undefined,
          (error: unknown) => error as Error,
        );
      const short = await refusal('Ab1');
      expect(short).toBeInstanceOf(ConfigError);
      expect(short?.message).toMatch(/^ADMIN_PASSWORD does not follow the password rules: /);
      expect(short?.message).toContain('At least 8 characters (min_length)');
      const noDigit = await refusal('Administrator');
      expect(noDigit?.message).toContain('At least 1 digit (min_digit_num)');
      expect(noDigit?.message).toContain('Does not contain the user name (does_not_contain_username)');
      expect(noDigit?.message).not.toContain('min_length');
      expect(await database.db.select().from(users).where(eq(users.username, 'admin'))).toEqual([]);

      // The test harness's password follows the rules, and a later start no longer checks it.
      const started = await bootstrap(database.db, { adminPassword: ADMIN_TEST_PASSWORD });
      expect(started.createdAdmin).toBe(true);
      const again = await bootstrap(database.db, { adminPassword: 'short' });
      expect(again.createdAdmin).toBe(false);
    } finally {
      await database.close();
      await fresh?.drop();
    }
  });

  it('generates first-start passwords that follow the password rules', () => {
    // A random 16-character token lacks a digit about one time in fifteen: so many draws catch that.
    for (let i = 0; i < 300; i++)
      expect(failedRules(generatePassword(DEFAULT_PASSWORD_RULES), 'admin', DEFAULT_PASSWORD_RULES)).toEqual(
        [],
      );
  });
});
