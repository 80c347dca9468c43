// The server in one JavaScript file (apps/server/dist/server.mjs): our TypeScript (the server, the contract,
// media-tools, the edge agent) bundled by esbuild, the packages of node_modules loaded from there as they are.
// `npm start` and the e2e servers run it: loading ~300 TypeScript modules through tsx's loader took a start
// 5.4 s of CPU before it did anything (2026-11-29), the bundle a fraction of that.
// Usage: node scripts/build-server.mjs [--if-stale]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/server.mjs');
/** Where the bundled TypeScript comes from: a newer file there makes the bundle stale. */
const SOURCES = [
  'apps/server/src',
  'apps/edge-agent/src',
  'packages/contract/src',
  'packages/media-tools/src',
].map((dir) => path.join(root, dir));

const newestMtime = (dir) => {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
};

export const serverBundleIsStale = () =>
  !fs.existsSync(SERVER_BUNDLE) ||
  fs.statSync(SERVER_BUNDLE).mtimeMs <
    Math.max(...SOURCES.map(newestMtime), fs.statSync(import.meta.filename).mtimeMs);

/**
 * Each module's `import.meta.url` and `import.meta.dirname` stay its own source file's: the server finds its
 * migrations, the web build, its worker and helper scripts relative to them, as it does run from source.
 */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      return {
        loader: 'ts',
        contents: source
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      };
    });
  },
};

export const buildServer = async () => {
  await build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // node_modules' packages as they are (native modules, wasm, their own files); our workspaces bundled.
    packages: 'external',
    alias: {
      '@media/contract': path.join(root, 'packages/contract/src/index.ts'),
      '@media/media-tools': path.join(root, 'packages/media-tools/src/index.ts'),
      '@media/edge-agent': path.join(root, 'apps/edge-agent/src/index.ts'),
    },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownImportMeta],
  });
};

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--if-stale') && !serverBundleIsStale()) process.exit(0);
  await buildServer();
}
