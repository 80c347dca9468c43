// Brotli and gzip copies of every compressible file of the web build, written once at build time, so the
// server sends them by the request's Accept-Encoding (@fastify/static preCompressed) at no cost per request.
// Node's zlib is the compressor; this only walks the folder (a Vite plugin would do the same in more code).
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web', process.env.WEB_OUT_DIR ?? 'dist');
// Source maps are left out: only a developer's tools fetch them, and they are most of the bytes.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|ico)$/;
// Smaller files gain nothing worth a second request path.
const MIN_BYTES = 512;

const files = (folder) =>
  fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });

let count = 0;
let plain = 0;
let brotli = 0;
for (const file of files(dist)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const content = fs.readFileSync(file);
  if (content.length < MIN_BYTES) continue;
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  count += 1;
  plain += content.length;
  brotli += br.length;
}
console.log(
  `precompressed ${count} files: ${(plain / 1024).toFixed(0)} kB -> ${(brotli / 1024).toFixed(0)} kB brotli (and gzip)`,
);
