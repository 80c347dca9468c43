import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'drizzle-orm';

/**
 * With SQL_COVERAGE_DIR set (npm test), every statement Drizzle sends is written once into a file of that
 * folder named by SQL_COVERAGE_SOURCE (the test file, set by apps/server/test/sql-coverage-source.ts) and
 * the process, so that the test run can show that the PostgreSQL run, which leaves out the files about media
 * and processes, still sends every statement those files send (scripts/sql-coverage.mjs).
 */
export const sqlCoverageLogger = (): Logger | undefined => {
  const dir = process.env.SQL_COVERAGE_DIR;
  if (!dir) return undefined;
  const seen = new Set<string>();
  return {
    logQuery(query) {
      const source = process.env.SQL_COVERAGE_SOURCE ?? 'unnamed';
      const key = `${source}\0${query}`;
      if (seen.has(key)) return;
      seen.add(key);
      try {
        fs.mkdirSync(dir, { recursive: true });
        // One statement per record: NUL never occurs in SQL text.
        fs.appendFileSync(path.join(dir, `${source}.${process.pid}.sql`), `${query}\0`);
      } catch {
        // Coverage is a report about the tests, never a reason for a query to fail.
      }
    },
  };
};
