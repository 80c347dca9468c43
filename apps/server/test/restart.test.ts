import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { roles } from '../src/modules/access/tables.ts';
import { columnSets } from '../src/modules/config/tables.ts';
import { passwordRules } from '../src/modules/passwords/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { verifyPassword } from '../src/platform/auth/password-hash.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import { makeUser } from '../src/seed/factories.ts';
import { testDriver } from './harness.ts';

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
});
