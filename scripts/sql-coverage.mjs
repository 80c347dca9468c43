// Compares the statements Drizzle sent in two test runs (folders written through SQL_COVERAGE_DIR,
// apps/server/src/platform/db/sql-coverage.ts, one file per test file and process): every statement that the
// named test files sent in the first run must occur somewhere in the second. npm test runs it after the
// PostgreSQL run, which leaves those files (about media and processes) to the PGlite run.
// Usage: node scripts/sql-coverage.mjs <pglite folder> <postgres folder> <test file name>...
import fs from 'node:fs';
import path from 'node:path';

/**
 * A statement's shape: the same query with lists of another length (an `in (…)`, a multi-row insert, an
 * unnest of arrays) is the same statement.
 */
/** A parameter (with its cast, if any) or a column's default, as an item of a list. */
const ITEM = String.raw`(?:\$(?:::[\w[\]]+)?|default)`;
const LIST = new RegExp(String.raw`\(${ITEM}(?:, ${ITEM})*\)`, 'g');

export const shapeOf = (sql) =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$')
    .replace(LIST, '($…)')
    .replace(/\(\$…\)(?:, \(\$…\))+/g, '($…)')
    .trim();

/** The statement shapes in `dir`, of the test files named in `only` when given. */
const read = (dir, only) => {
  const shapes = new Set();
  if (!fs.existsSync(dir)) return shapes;
  for (const name of fs.readdirSync(dir)) {
    if (only && !only.some((file) => name.startsWith(`${file}.`))) continue;
    for (const sql of fs.readFileSync(path.join(dir, name), 'utf8').split('\0'))
      if (sql) shapes.add(shapeOf(sql));
  }
  return shapes;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [first, second, ...files] = process.argv.slice(2);
  const ran = read(first, files);
  const covered = read(second);
  const missing = [...ran].filter((shape) => !covered.has(shape)).sort();
  console.log(
    `SQL statements: the ${files.length} files run on PGlite only sent ${ran.size} shapes; the PostgreSQL run sent ${covered.size}; ${missing.length} of the first were not sent on PostgreSQL`,
  );
  for (const shape of missing) console.log(`  ${shape.slice(0, 400)}`);
  process.exit(missing.length === 0 && ran.size > 0 ? 0 : 1);
}
