// `npm start`: build the web app and the server (scripts/build-server.mjs) when a build is missing or older
// than its sources, then run the server's build.
// package.json runs this with `exec`, so that npm's shell is replaced by it: a SIGTERM or SIGINT that npm
// passes on reaches this process, which passes it on to the server (a shell would die and leave both running).
// With WEB_DIST set the server serves that build, and none is made here.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer, SERVER_BUNDLE, serverBundleIsStale } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');

const newestMtime = (dir) => {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
};

const webBuildIsStale = () =>
  !fs.existsSync(builtIndex) ||
  fs.statSync(builtIndex).mtimeMs <
    Math.max(newestMtime(path.join(webDir, 'src')), newestMtime(path.join(root, 'packages/contract/src')));

if (!process.env.WEB_DIST && webBuildIsStale()) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBundleIsStale()) {
  console.log('Building the server…');
  await buildServer();
}

// Errors' stacks name the TypeScript sources (the bundle's source map).
const server = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
