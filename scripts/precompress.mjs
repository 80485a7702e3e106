// Precompresses the built app (issue #11): `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip,
// level 9) next to every text file of dist/ of at least 256 bytes, kept only when smaller than the
// original. server/routes/static-app.ts sends them by Accept-Encoding. Done once at build time, so
// the slowest, smallest settings cost nothing per request.
//
// A few lines of node:zlib rather than a plugin (vite-plugin-compression and friends): they add
// dependencies and options for what is one loop here, and this must run after vite-plugin-pwa has
// written sw.js and workbox-*.js in its own closeBundle, which `order: 'post'` below guarantees.
// The .br/.gz files stay out of the service worker's precache (pwa-options globIgnores): the
// browser decodes what it receives, so the precache holds the plain bytes either way.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const PRECOMPRESSED_TYPES = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt']);
const MIN_BYTES = 256;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes the .br and .gz of each eligible file under dir; returns what it wrote. */
export function precompressDir(dir) {
  const written = [];
  for (const file of files(dir)) {
    if (!PRECOMPRESSED_TYPES.has(extname(file).toLowerCase())) continue;
    if (statSync(file).size < MIN_BYTES) continue;
    const body = readFileSync(file);
    const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
    written.push({ file, raw: body.length, br: br.length, gzip: gz.length });
  }
  return written;
}

/** The Vite plugin: after every other plugin has written its files (the service worker included). */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'passage-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDir(outDir);
      },
    },
  };
}

// `node scripts/precompress.mjs [dir]`: precompress an already built dist/.
if (import.meta.url === `file://${process.argv[1]}`) {
  const out = precompressDir(process.argv[2] ?? 'dist');
  console.log(`precompressed ${out.length} files`);
}
