/**
 * The bench's facility-link proxy (test/bench/app/delay-proxy.ts, issue #11): answers pass through
 * byte for byte, the link's latency and bandwidth are really applied — both directions, shared by
 * concurrent requests — and the bytes that crossed are counted. Lower bounds only: the model says
 * how long the bytes take at least; a busy machine only adds.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkProxy, type DelayProxy } from '../../bench/app/delay-proxy';
import type { LinkProfile } from '../../bench/app/facility-link';
import { freePort } from '../../support/processes';

const BODY = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 31) % 256));
const LINK: LinkProfile = { roundTripMs: 200, downBitsPerSecond: 2_000_000, upBitsPerSecond: 400_000 };
/** 100,000 bytes at 2 Mbps. */
const DOWN_MS = (BODY.length * 8 * 1000) / LINK.downBitsPerSecond;

let server: Server;
let proxy: DelayProxy;
let uploaded = 0;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let n = 0;
    for await (const chunk of req) n += (chunk as Buffer).length;
    uploaded = n;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length) });
    res.end(BODY);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  proxy = await startLinkProxy(`http://127.0.0.1:${port}`, LINK);
});
afterAll(async () => {
  await proxy.close();
  await new Promise((r) => server.close(r));
});

describe('the facility-link proxy', () => {
  it('passes the answer through unchanged, no sooner than latency + transfer allow, and counts its bytes', async () => {
    const before = proxy.stats();
    const t0 = performance.now();
    const res = await fetch(`${proxy.baseUrl}/assets/x.bin`);
    const body = Buffer.from(await res.arrayBuffer());
    const elapsed = performance.now() - t0;
    expect(body.equals(BODY)).toBe(true);
    // A new connection (one round trip), the request (half), the answer (half) and its transfer.
    expect(elapsed).toBeGreaterThanOrEqual(2 * LINK.roundTripMs + DOWN_MS - 5);
    const after = proxy.stats();
    expect(after.requests - before.requests).toBe(1);
    expect(after.down - before.down).toBeGreaterThan(BODY.length);
    expect(after.down - before.down).toBeLessThan(BODY.length + 1000);
    expect(after.apiRequests - before.apiRequests).toBe(0);
  });

  it('shares the down link between concurrent answers', async () => {
    const t0 = performance.now();
    const bodies = await Promise.all([1, 2, 3].map((i) => fetch(`${proxy.baseUrl}/api/x/${i}`).then((r) => r.arrayBuffer())));
    const elapsed = performance.now() - t0;
    for (const b of bodies) expect(Buffer.from(b).equals(BODY)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(3 * DOWN_MS + LINK.roundTripMs - 5);
    expect(proxy.stats().apiDown).toBeGreaterThan(3 * BODY.length);
  });

  it('sends a request body up at the up link rate, intact', async () => {
    const payload = 'x'.repeat(40_000); // 0.8 s at 400 kbps
    const t0 = performance.now();
    await (await fetch(`${proxy.baseUrl}/api/upload`, { method: 'POST', body: payload })).arrayBuffer();
    const elapsed = performance.now() - t0;
    expect(uploaded).toBe(payload.length);
    expect(elapsed).toBeGreaterThanOrEqual((payload.length * 8 * 1000) / LINK.upBitsPerSecond + LINK.roundTripMs + DOWN_MS - 5);
  });
});
