// Gzipped size of the JavaScript a browser needs for the sign-in page plus the shell, from Vite's manifest.
// `npm run build` prints it; `npm run bench` checks it against the budget of DESIGN.md (250 kB).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const WEB_BUDGET_BYTES = 250 * 1024;
// WEB_OUT_DIR: the folder `npm run build` wrote to (vite.config.ts), relative to apps/web.
const dist = path.resolve(import.meta.dirname, '../apps/web', process.env.WEB_OUT_DIR ?? 'dist');

/** The gzipped JavaScript of the entry plus the lazy chunks of the given source files and what they import. */
const measureEntryWith = (sources) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const needed = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || needed.has(key)) return;
    needed.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const source of sources) {
    const key = Object.keys(manifest).find((name) => name.endsWith(source));
    if (!key) throw new Error(`the chunk of ${source} is missing from the manifest`);
    visit(key);
  }
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

/**
 * What the sign-in page needs: the entry (React, the router, the query client, the theme) and its lazy
 * route. The frame of the signed-in pages (app/Shell.tsx) is a lazy route too, loaded with the first of them.
 */
export const measureSignInBundle = () => measureEntryWith(['features/auth/SignInPage.tsx']);
/** What the first signed-in page needs: the entry, the frame and the home page. */
export const measureSignedInHome = () => measureEntryWith(['app/Shell.tsx', 'app/HomePage.tsx']);

/**
 * The round of requests in which a page asks for each script, from Vite's manifest: the scripts it had
 * before (`loaded`, file names under assets/) are round 0; a chunk another imports statically comes in the
 * same round (Vite's preload helper fetches a lazy chunk with all it imports at once); a chunk another
 * imports lazily (import()) comes one round after it. Answers the round of each of `requested`.
 */
export const requestRounds = (loaded, requested) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const keyOf = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const round = new Map();
  const queue = [];
  for (const file of loaded) {
    const key = keyOf.get(file);
    if (key !== undefined) {
      round.set(key, 0);
      queue.push(key);
    }
  }
  // Shortest rounds first (0–1 breadth-first: a static import costs nothing, a lazy one a round).
  while (queue.length > 0) {
    queue.sort((a, b) => round.get(a) - round.get(b));
    const key = queue.shift();
    const chunk = manifest[key];
    const here = round.get(key);
    for (const [targets, cost] of [
      [chunk.imports ?? [], 0],
      [chunk.dynamicImports ?? [], 1],
    ])
      for (const target of targets) {
        const next = here + cost;
        if (!manifest[target] || (round.get(target) ?? Number.POSITIVE_INFINITY) <= next) continue;
        round.set(target, next);
        queue.push(target);
      }
  }
  return requested.map((file) => {
    const key = keyOf.get(file);
    return { file, source: key, round: key === undefined ? undefined : round.get(key) };
  });
};

if (process.argv[1] === import.meta.filename) {
  const { total, files } = measureSignInBundle();
  for (const { file, gzipped } of files)
    console.log(`  ${file.padEnd(48)} ${(gzipped / 1024).toFixed(1).padStart(7)} kB gzip`);
  const verdict = total <= WEB_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `Sign-in page + shell JavaScript: ${(total / 1024).toFixed(1)} kB gzipped (${verdict} the ${WEB_BUDGET_BYTES / 1024} kB budget)`,
  );
  console.log(
    `First signed-in page (entry, frame, home page) JavaScript: ${(measureSignedInHome().total / 1024).toFixed(1)} kB gzipped`,
  );
}
