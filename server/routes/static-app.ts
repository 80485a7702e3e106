/**
 * Serves the built PWA from distDir. Page paths (and any unknown path, so the app can show its own
 * 404 screen) get index.html; /api never does. index.html and the service-worker files must be
 * revalidated on every load (a stale sw.js would pin users to an old release), while hashed files
 * under /assets never change and are cached for a year.
 *
 * Compression (issue #11): the build writes `<file>.br` and `<file>.gz` next to every text asset
 * (scripts/precompress.mjs); a request whose Accept-Encoding takes one gets it with
 * `Content-Encoding` and the original's type and cache headers, and every answer that could differ
 * says `Vary: Accept-Encoding`. Each representation has its own ETag (size and mtime of the file
 * actually sent, plus the encoding), so revalidating index.html or sw.js costs a 304.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { Hono, type Context } from 'hono';
import { chooseEncoding, COMPRESSIBLE_TYPE, varyOnEncoding, type Encoding } from '../http/encoding';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};
const NO_CACHE = new Set(['/index.html', '/sw.js', '/registerSW.js', '/manifest.webmanifest']);

export function cacheControl(path: string): string {
  if (NO_CACHE.has(path) || /^\/workbox-[\w-]+\.js$/.test(path)) return 'no-cache';
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  // Icons and other unhashed files: an hour, then revalidate.
  return 'public, max-age=3600';
}

async function fileAt(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = resolve(root, '.' + normalize(decoded));
  if (full !== root && !full.startsWith(root + sep)) return null; // no escaping dist/ with ../
  const info = await stat(full).catch(() => null);
  return info?.isFile() ? full : null;
}

export function staticAppRoutes(distDir: string) {
  const root = resolve(distDir);
  const r = new Hono();

  const send = async (c: Context, file: string, path: string) => {
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const original = await stat(file);
    let chosen: { file: string; info: Stats; encoding?: Encoding } | null = null;
    if (COMPRESSIBLE_TYPE.test(type)) {
      const variants = await Promise.all(
        (['br', 'gzip'] as const).map(async (encoding) => {
          const variant = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
          const info = await stat(variant).catch(() => null);
          // A copy older than its file is from an earlier build (the file was replaced since): never
          // send it; the plain file is still right, and the compress middleware packs it on the fly.
          return info?.isFile() && info.mtimeMs >= original.mtimeMs ? { file: variant, info, encoding } : null;
        }),
      );
      const available = variants.filter((v) => v !== null);
      const encoding = chooseEncoding(c.req.header('Accept-Encoding'), available.map((v) => v.encoding));
      chosen = available.find((v) => v.encoding === encoding) ?? null;
    }
    chosen ??= { file, info: original };
    const headers = new Headers({ 'Content-Type': type, 'Cache-Control': cacheControl(path) });
    if (COMPRESSIBLE_TYPE.test(type)) varyOnEncoding(headers);
    if (chosen.encoding) headers.set('Content-Encoding', chosen.encoding);
    const etag = `"${chosen.info.size.toString(16)}-${Math.floor(chosen.info.mtimeMs).toString(16)}${chosen.encoding ? `-${chosen.encoding}` : ''}"`;
    headers.set('ETag', etag);
    const ifNoneMatch = c.req.header('If-None-Match');
    if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
      headers.delete('Content-Type');
      return new Response(null, { status: 304, headers });
    }
    headers.set('Content-Length', String(chosen.info.size));
    return new Response(await readFile(chosen.file), { status: 200, headers });
  };

  r.get('*', async (c) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/')) return c.notFound();
    // Source maps are never served, even when a build left them in dist/ (they would publish the
    // sources of the app, comments included).
    if (extname(path).toLowerCase() === '.map') return c.text('Not found', 404);
    const file = path === '/' ? null : await fileAt(root, path);
    if (file) return send(c, file, path);
    // A missing hashed asset or file-like path is a real 404: answering with HTML would hand a
    // script tag an HTML page (and a broken release would look like it works).
    if (path.startsWith('/assets/') || extname(path) !== '') return c.text('Not found', 404);
    const index = join(root, 'index.html');
    if (!(await stat(index).catch(() => null))) return c.text('Passage has not been built yet: run npm run build.', 503);
    return send(c, index, '/index.html');
  });

  return r;
}
