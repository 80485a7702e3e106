/**
 * Issue #11: the built app's files and the API answers cross the wire compressed when the client
 * asks (brotli or gzip), plain when it does not, and decode to exactly the bytes of the original.
 * The dist/ here is made by the build's own precompress step (scripts/precompress.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../scripts/precompress.mjs';
import { E, startTestServer, type TestServer } from './harness';

let s: TestServer;
let dist: string;
const ORIGIN = 'http://localhost';

// Text that compresses the way real bundles do (repeated identifiers), and bytes that do not.
const words = (n: number, salt: string) => Array.from({ length: n }, (_, i) => `${salt}${i % 37}`).join(' ');
const FILES: Record<string, string | Buffer> = {
  'index.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Passage</title><script type="module" src="/assets/index-Abc123.js"></script><link rel="stylesheet" href="/assets/index-Abc123.css"></head><body><div id="root"></div><!-- ${words(40, 'pad')} --></body></html>`,
  'assets/index-Abc123.js': `export const names = [${Array.from({ length: 3000 }, (_, i) => `"participant_${i % 97}"`).join(',')}];`,
  'assets/index-Abc123.css': `.card{display:block;padding:1rem}${Array.from({ length: 400 }, (_, i) => `.c${i % 50}{margin:${i % 7}px}`).join('')}`,
  'icon.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${Array.from({ length: 30 }, (_, i) => `<rect x="${i}" y="${i}" width="10" height="10" fill="#1e3a5f"/>`).join('')}</svg>`,
  'manifest.webmanifest': JSON.stringify({ name: 'Passage', short_name: 'Passage', description: words(60, 'd'), icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] }),
  'sw.js': `self.__WB_MANIFEST=[${Array.from({ length: 60 }, (_, i) => `{url:"assets/chunk-${i % 9}.js",revision:null}`).join(',')}];`,
  'icons/icon-192.png': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)),
};
const TEXT = [
  { path: '/index.html', file: 'index.html', type: /text\/html/, cache: 'no-cache' },
  { path: '/Participants', file: 'index.html', type: /text\/html/, cache: 'no-cache' }, // the SPA fallback
  { path: '/assets/index-Abc123.js', file: 'assets/index-Abc123.js', type: /javascript/, cache: 'public, max-age=31536000, immutable' },
  { path: '/assets/index-Abc123.css', file: 'assets/index-Abc123.css', type: /text\/css/, cache: 'public, max-age=31536000, immutable' },
  { path: '/icon.svg', file: 'icon.svg', type: /image\/svg\+xml/, cache: 'public, max-age=3600' },
  { path: '/manifest.webmanifest', file: 'manifest.webmanifest', type: /manifest\+json/, cache: 'no-cache' },
  { path: '/sw.js', file: 'sw.js', type: /javascript/, cache: 'no-cache' },
];

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'passage-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'icons'));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(join(dist, name), body);
  precompressDir(dist);
  s = await startTestServer({ distDir: dist });
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (path: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
  s.app.request(`${ORIGIN}${path}`, { headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...extra } });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const decode = (body: Buffer, encoding: string | null) => (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body);

describe('static files', () => {
  it('writes a smaller .br and .gz next to each text file at build time, none for images', () => {
    for (const { file } of TEXT) {
      const raw = readFileSync(join(dist, file));
      for (const ext of ['br', 'gz']) {
        const packed = readFileSync(join(dist, `${file}.${ext}`));
        expect(packed.length, `${file}.${ext}`).toBeLessThan(raw.length);
        expect(decode(packed, ext === 'br' ? 'br' : 'gzip').equals(raw)).toBe(true);
      }
    }
    expect(() => readFileSync(join(dist, 'icons/icon-192.png.br'))).toThrow();
  });

  it.each(TEXT)('$path: br and gzip when asked, plain when not, the same bytes and headers', async ({ path, file, type, cache }) => {
    const original = readFileSync(join(dist, file));
    for (const encoding of ['br', 'gzip']) {
      const res = await get(path, encoding);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding'), `${path} ${encoding}`).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.headers.get('cache-control')).toBe(cache);
      const body = await bytes(res);
      expect(body.length).toBeLessThan(original.length);
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      expect(decode(body, encoding).equals(original)).toBe(true);
    }
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get(path, accept);
      expect(plain.headers.get('content-encoding'), `${path} ${accept}`).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(plain.headers.get('cache-control')).toBe(cache);
      expect((await bytes(plain)).equals(original)).toBe(true);
    }
  });

  it('prefers brotli, honours q-values and wildcards', async () => {
    const enc = async (accept: string) => (await get('/assets/index-Abc123.js', accept)).headers.get('content-encoding');
    expect(await enc('gzip, deflate, br, zstd')).toBe('br'); // what Chromium sends
    expect(await enc('gzip, deflate')).toBe('gzip');
    expect(await enc('br;q=0.5, gzip')).toBe('gzip');
    expect(await enc('br;q=0, *')).toBe('gzip');
    expect(await enc('*')).toBe('br');
    expect(await enc('deflate')).toBeNull();
  });

  it('sends images as they are, whatever the client accepts', async () => {
    const res = await get('/icons/icon-192.png', 'br, gzip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await bytes(res)).equals(FILES['icons/icon-192.png'] as Buffer)).toBe(true);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const full = await get('/assets/index-Abc123.js', encoding);
      const head = await s.app.request(`${ORIGIN}/assets/index-Abc123.js`, { method: 'HEAD', headers: encoding ? { 'accept-encoding': encoding } : {} });
      expect(head.status).toBe(200);
      for (const h of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) expect(head.headers.get(h), `${h} ${encoding}`).toBe(full.headers.get(h));
      expect((await bytes(head)).length).toBe(0);
    }
  });

  it('gives each encoding its own ETag and answers a matching revalidation with 304', async () => {
    const br = await get('/index.html', 'br');
    const plain = await get('/index.html');
    const tag = br.headers.get('etag');
    expect(tag).toMatch(/^".+"$/);
    expect(tag).not.toBe(plain.headers.get('etag'));
    const again = await get('/index.html', 'br', { 'if-none-match': tag! });
    expect(again.status).toBe(304);
    expect((await bytes(again)).length).toBe(0);
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('vary')).toMatch(/accept-encoding/i);
    // The plain copy's tag does not validate the brotli one (a cache must not mix them up).
    const mixed = await get('/index.html', 'br', { 'if-none-match': plain.headers.get('etag')! });
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('content-encoding')).toBe('br');
  });
});

describe('API answers', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ first_name: `First${i}`, last_name: `Last${i % 40}`, custody_status: 'in-custody', facility: 'North Camp' }));
    const res = await s.request('POST', E('Participant', '/bulk'), { token: s.tokens.admin, body: rows });
    expect(res.status).toBe(200);
  });

  const list = (acceptEncoding?: string) => s.request('GET', E('Participant', '?limit=300'), { token: s.tokens.coach, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('compresses an entity list with br or gzip when asked, to the same JSON bytes', async () => {
    const plain = await list();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const original = await bytes(plain);
    expect(JSON.parse(original.toString('utf8'))).toHaveLength(300);
    for (const encoding of ['br', 'gzip']) {
      const res = await list(encoding === 'br' ? 'gzip, deflate, br' : 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = await bytes(res);
      expect(body.length).toBeLessThan(original.length / 4);
      expect(decode(body, encoding).equals(original)).toBe(true);
    }
  });

  it('leaves answers under 1 KB, HEAD and errors without a body as they are', async () => {
    const one = await s.request('GET', E('Participant', '?limit=1&fields=id'), { token: s.tokens.coach, headers: { 'accept-encoding': 'br' } });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await one.text())).toHaveLength(1);
    const head = await s.request('HEAD', E('Participant', '?limit=300'), { token: s.tokens.coach, headers: { 'accept-encoding': 'br' } });
    expect(head.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses the sign-in page (it carries secrets next to text the caller chose: BREACH)', async () => {
    const res = await s.app.request(`${ORIGIN}/login?from_url=${encodeURIComponent(`${ORIGIN}/`)}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await res.text()).length).toBeGreaterThan(1024); // big enough that it would otherwise be compressed
  });
});

describe('a file replaced after the build', () => {
  it('is sent fresh, never as the stale .br/.gz of the earlier build', async () => {
    const path = join(dist, 'assets/index-Abc123.css');
    const next = `${FILES['assets/index-Abc123.css']}.next{color:red}`;
    writeFileSync(path, next);
    const future = new Date(Date.now() + 5000);
    utimesSync(path, future, future);
    for (const accept of ['br', 'gzip', undefined]) {
      const res = await get('/assets/index-Abc123.css', accept);
      expect(decode(await bytes(res), res.headers.get('content-encoding')).toString('utf8'), String(accept)).toBe(next);
    }
  });
});
