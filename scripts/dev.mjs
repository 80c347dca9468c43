// `npm run dev`: the API server (restarting on change) and Vite with its proxy to it, together.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn('npx', ['tsx', 'watch', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOCAL_EDGE: process.env.LOCAL_EDGE ?? '0' },
  }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  });
console.log('API on http://localhost:8080, web app with live reload on http://localhost:5173');
