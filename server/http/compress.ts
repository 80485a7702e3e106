/**
 * Compresses API answers above a small threshold (issue #11): brotli when the client takes it,
 * else gzip, with node:zlib. Not Hono's compress middleware: it uses CompressionStream, which on
 * Node 20 offers gzip and deflate only, so a client asking for br alone got nothing compressed,
 * and brotli is ~15 % smaller than gzip on the entity lists that make up a first sync. API answers
 * are already whole strings in memory (c.json), so buffering them costs nothing.
 *
 * Left alone: HEAD, 204/206/304, answers that already carry a Content-Encoding (the precompressed
 * static files), `Cache-Control: no-transform`, non-text types, and the sign-in API and pages —
 * their answers carry tokens or CSRF-like secrets next to text the caller sent, which is what a
 * compression side channel (BREACH) needs; they are small anyway.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { chooseEncoding, COMPRESSIBLE_TYPE, varyOnEncoding } from './encoding';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Below this many bytes an answer is sent as it is: headers and the codec's framing would eat the gain. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** Brotli 5 / gzip 6: most of the size gain at a few ms per 100 KB (brotli 11 is ~50× slower). */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

const NEVER = /^\/api\/apps\/[^/]+\/auth\/|^\/api\/apps\/auth\/|^\/api\/apps\/[^/]+\/users\/invite-user|^\/login(?:\/|$)/;

export function compressText(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gz(body, { level: GZIP_LEVEL });
}

export function compressAnswers(threshold = COMPRESS_THRESHOLD_BYTES): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || [204, 206, 304].includes(res.status)) return;
    if (res.headers.has('Content-Encoding') || NEVER.test(c.req.path)) return;
    const type = res.headers.get('Content-Type') ?? '';
    // An event stream (issue #24.2) never ends: reading it whole would hold every event forever.
    if (!COMPRESSIBLE_TYPE.test(type) || /^\s*text\/event-stream/i.test(type)) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    varyOnEncoding(res.headers);
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const length = Number(res.headers.get('Content-Length') ?? NaN);
    if (length < threshold) return;
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.length < threshold) {
      c.res = new Response(body, res);
      return;
    }
    const packed = await compressText(body, encoding);
    // Hono copies the old answer's headers onto the new one, so the ones that change are set after.
    c.res = new Response(new Uint8Array(packed), { status: res.status, statusText: res.statusText, headers: res.headers });
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.set('Content-Length', String(packed.length));
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
