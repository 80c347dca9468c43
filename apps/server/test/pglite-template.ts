import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '../src/platform/db/client.ts';

// The names provided here are declared with the harness that injects them (ProvidedContext in harness.ts).
import type {} from './harness.ts';

/** The migrations and PGlite's version decide the template: a change to either makes a new one. */
const templateKey = () => {
  const hash = createHash('sha256');
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let folder = path.dirname(entry);
  while (!fs.existsSync(path.join(folder, 'package.json'))) folder = path.dirname(folder);
  const pglite = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(pglite.version);
  const files = (folder: string): string[] =>
    fs
      .readdirSync(folder, { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? files(path.join(folder, entry.name)) : [path.join(folder, entry.name)],
      )
      .sort();
  for (const file of files(MIGRATIONS_FOLDER)) hash.update(file).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
};

/** A template of other migrations is dropped once it is this old: another checkout's run may still copy it. */
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;

/**
 * The migrated template database on the PostgreSQL server (made under a name of its own, then renamed, so two
 * runs at once never see half a template). Each carries the time it was made (its comment); templates of other
 * migrations are dropped when a day old — not sooner: a run of another checkout (another branch's CI on the same
 * server) copies its own template for each of its files, and lost it mid-run when any newer run dropped it.
 */
const postgresTemplate = async (baseUrl: string) => {
  const name = `test_template_${templateKey()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const existing = await admin.query<{ datname: string; made: string | null }>(
      "select datname, shobj_description(oid, 'pg_database') as made from pg_database where datname like 'test\\_template\\_%'",
    );
    for (const { datname, made } of existing.rows) {
      const madeAt = Number(/^made (\d+)$/.exec(made ?? '')?.[1] ?? 0);
      if (datname !== name && Date.now() - madeAt > STALE_TEMPLATE_MS)
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)}`).catch(() => undefined);
    }
    if (existing.rows.some((row) => row.datname === name)) return name;
    const making = `${name}_${process.pid}`;
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(making)}`);
    const url = new URL(baseUrl);
    url.pathname = `/${making}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await pool.end();
    }
    await admin.query(`COMMENT ON DATABASE ${pg.escapeIdentifier(making)} IS 'made ${Date.now()}'`);
    await admin
      .query(`ALTER DATABASE ${pg.escapeIdentifier(making)} RENAME TO ${pg.escapeIdentifier(name)}`)
      .catch(async () => admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(making)}`));
    return name;
  } finally {
    await admin.end();
  }
};

/**
 * Vitest global setup of the server tests: initdb and the migrations once per set of migrations (a dump kept
 * in the system's temporary folder for PGlite, a template database on PostgreSQL), then each test file's
 * fresh database is a copy of it instead of made from nothing (PGlite: 4.6 -> 3.2 s a test app on this
 * machine; PostgreSQL: the migrations' 1.4 s saved a file).
 */
export async function setup(project: TestProject) {
  project.provide('pgliteTemplate', undefined);
  project.provide('postgresTemplate', undefined);
  // PGLITE_TEMPLATE=0: every file makes its database from nothing (to measure, or to rule the template out).
  if (process.env.PGLITE_TEMPLATE === '0') return;
  if (process.env.TEST_DB === 'postgres' && process.env.DATABASE_URL) {
    project.provide('postgresTemplate', await postgresTemplate(process.env.DATABASE_URL));
    return;
  }
  const folder = path.join(os.tmpdir(), 'media-pglite-templates');
  const file = path.join(folder, `${templateKey()}.tar`);
  if (!fs.existsSync(file)) {
    const db = new PGlite({ extensions: { pg_trgm } });
    await migrate(drizzle({ client: db }), { migrationsFolder: MIGRATIONS_FOLDER });
    const dump = await db.dumpDataDir('none');
    await db.close();
    fs.mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}.part`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  project.provide('pgliteTemplate', file);
}
