// Gzipped size of the JavaScript a browser needs for the sign-in page plus the shell, from Vite's manifest.
// `npm run build` prints it; `npm run bench` checks it against the budget of DESIGN.md (250 kB).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const WEB_BUDGET_BYTES = 250 * 1024;
// WEB_OUT_DIR: the folder `npm run build` wrote to (vite.config.ts), relative to apps/web.
const dist = path.resolve(import.meta.dirname, '../apps/web', process.env.WEB_OUT_DIR ?? 'dist');

export const measureSignInBundle = () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const needed = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || needed.has(key)) return;
    needed.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  // The sign-in page is a lazy route; the shell is part of the entry.
  const signIn = Object.keys(manifest).find((key) => key.endsWith('features/auth/SignInPage.tsx'));
  if (!signIn) throw new Error('the sign-in page chunk is missing from the manifest');
  visit(signIn);
  let total = 0;
  const files = [];
  for (const key of needed) {
    const file = manifest[key].file;
    if (!file.endsWith('.js')) continue;
    const gzipped = gzipSync(fs.readFileSync(path.join(dist, file))).length;
    total += gzipped;
    files.push({ file, gzipped });
  }
  return { total, files };
};

if (process.argv[1] === import.meta.filename) {
  const { total, files } = measureSignInBundle();
  for (const { file, gzipped } of files)
    console.log(`  ${file.padEnd(48)} ${(gzipped / 1024).toFixed(1).padStart(7)} kB gzip`);
  const verdict = total <= WEB_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `Sign-in page + shell JavaScript: ${(total / 1024).toFixed(1)} kB gzipped (${verdict} the ${WEB_BUDGET_BYTES / 1024} kB budget)`,
  );
}
