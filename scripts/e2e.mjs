// The e2e tests: make sure Chromium is there (install Debian's when we can), build the web app, run them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(chromium)) {
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing; installing Debian's chromium…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install =
      update.status === 0
        ? spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
        : update;
    if (install.status !== 0 || !fs.existsSync(chromium)) {
      console.error('Could not install chromium. Install it with: apt-get install chromium');
      process.exit(1);
    }
  } else {
    console.error(
      `Chromium was not found at ${chromium}. Install it with: sudo apt-get install chromium (or set CHROMIUM_PATH).`,
    );
    process.exit(1);
  }
}

if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const run = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
