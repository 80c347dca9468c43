import path from 'node:path';
import { expect } from 'vitest';

// The statements this test file sends, and those of the servers it starts (they inherit the variable), are
// recorded under its name (platform/db/sql-coverage.ts), so that npm test can compare the files it runs on
// PGlite only with the PostgreSQL run.
if (process.env.SQL_COVERAGE_DIR)
  process.env.SQL_COVERAGE_SOURCE = path.basename(expect.getState().testPath ?? 'unknown');
