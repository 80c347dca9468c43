import {
  DEFAULT_FILE_COLUMNS,
  DEFAULT_LOGGING_COLUMNS,
  DEFAULT_PASSWORD_RULES,
  failedRules,
  type PasswordRules,
} from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { ensureDefaultRoles, grantManager } from './modules/access/service.ts';
import { columnSets, installation } from './modules/config/tables.ts';
import { findRules, insertMissingDefaultRules } from './modules/passwords/repo.ts';
import { users } from './modules/users/tables.ts';
import { hashPassword } from './platform/auth/password-hash.ts';
import { ConfigError } from './platform/config.ts';
import { randomToken } from './platform/crypto.ts';
import type { Db } from './platform/db/client.ts';

export type BootstrapOutcome = {
  secretKey: string;
  /** Set only when this start created `admin` with a generated password, to print once. */
  generatedAdminPassword?: string;
  createdAdmin: boolean;
};

const ADMIN_USERNAME = 'admin';

/** A random password that follows the rules (a random one may lack a digit or an upper-case letter). */
export const generatePassword = (rules: PasswordRules) => {
  for (;;) {
    const password = randomToken(12);
    if (failedRules(password, ADMIN_USERNAME, rules).length === 0) return password;
  }
};

/** The first-start password set by the environment must follow the password rules like any other. */
const checkAdminPassword = (password: string, rules: PasswordRules) => {
  const failed = failedRules(password, ADMIN_USERNAME, rules);
  if (failed.length === 0) return;
  const broken = failed.map((outcome) => `${outcome.message} (${outcome.rule})`).join('; ');
  throw new ConfigError(
    `ADMIN_PASSWORD does not follow the password rules: ${broken}. Set an ADMIN_PASSWORD that does, or leave it unset to have one generated.`,
  );
};

/**
 * First start on an empty database: cloud root, `admin`, default roles, columns and password rules.
 * Later starts add only what is missing and never change what is there.
 */
export const bootstrap = async (
  db: Db,
  options: { adminPassword?: string; secretKey?: string },
): Promise<BootstrapOutcome> => {
  const generatedAdminPassword = options.adminPassword ? undefined : generatePassword(DEFAULT_PASSWORD_RULES);
  return db.transaction(async (tx) => {
    // Serialise concurrent first starts of several instances.
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    await tx
      .insert(installation)
      .values([
        { key: 'cloud_name', value: 'Cloud' },
        { key: 'secret_key', value: randomToken(32) },
      ])
      .onConflictDoNothing();
    const [secretRow] = await tx.select().from(installation).where(eq(installation.key, 'secret_key'));
    await ensureDefaultRoles(tx);
    await insertMissingDefaultRules(tx);
    await tx
      .insert(columnSets)
      .values([
        { scope: 'cloud', kind: 'file', columns: DEFAULT_FILE_COLUMNS, autoInherit: false },
        { scope: 'cloud', kind: 'logging', columns: DEFAULT_LOGGING_COLUMNS, autoInherit: false },
      ])
      .onConflictDoNothing();
    const [existingAdmin] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, ADMIN_USERNAME));
    let createdAdmin = false;
    if (!existingAdmin) {
      if (options.adminPassword) checkAdminPassword(options.adminPassword, await findRules(tx));
      const [admin] = await tx
        .insert(users)
        .values({
          username: ADMIN_USERNAME,
          fullname: 'Administrator',
          // Hashed only on the start that makes the admin: argon2 is what it costs on every other start.
          passwordHash: await hashPassword(options.adminPassword ?? generatedAdminPassword ?? ''),
          passwordChangedAt: new Date(),
        })
        .returning({ id: users.id });
      if (admin) await grantManager(tx, { userId: admin.id, scope: 'admin' });
      createdAdmin = true;
    }
    return {
      secretKey: options.secretKey ?? secretRow?.value ?? '',
      generatedAdminPassword: createdAdmin ? generatedAdminPassword : undefined,
      createdAdmin,
    };
  });
};
