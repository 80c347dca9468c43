import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { measureSignedInHome, measureSignInBundle, WEB_BUDGET_BYTES } from '../scripts/web-size.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** DESIGN.md: the sign-in page plus shell stays under 250 kB of gzipped JavaScript. */
export const runWebSizeBenchmark = async () => {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/.vite/manifest.json'))) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the web build failed');
  }
  const { total } = measureSignInBundle();
  const ratio = total / WEB_BUDGET_BYTES;
  console.log(
    `sign-in page + shell: ${(total / 1024).toFixed(1)} kB gzipped, ${(ratio * 100).toFixed(1)}% of the ${WEB_BUDGET_BYTES / 1024} kB budget`,
  );
  console.log(
    `first signed-in page (entry, frame, home page): ${(measureSignedInHome().total / 1024).toFixed(1)} kB gzipped`,
  );
  if (total > WEB_BUDGET_BYTES) throw new Error('the sign-in page and shell are over the JavaScript budget');
};
