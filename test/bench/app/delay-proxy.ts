/**
 * A loopback HTTP proxy between the browser and the real server that plays a slow network link:
 * a fixed delay per request (the baseline's "150 ms per request"), or a whole link profile
 * (facility-link.ts, issue #11): one-way latency each way, and the link's bandwidth in each
 * direction, shared by every connection as on a real uplink. Added in the server path rather than
 * by DevTools throttling so the browser's own connection limit (6 per host over HTTP/1.1), its
 * queueing and its service worker behave exactly as they would over a slow link.
 *
 * Model (link profiles): a new connection costs one extra round trip (the TCP handshake; no TLS
 * here). A request's head and body cross the up link (serialised with every other byte going up),
 * then half a round trip; the server answers; half a round trip later the answer's head and body
 * cross the down link in 8 KB slices, interleaved with other answers. Bytes are counted as they
 * cross: the encoded bodies (whatever Content-Encoding the server chose) plus the heads.
 */
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '../../support/processes';
import type { LinkProfile } from './facility-link';

export interface LinkStats {
  /** Requests passed on so far. */
  requests: number;
  /** Bytes up (request heads + bodies) and down (answer heads + bodies), all paths. */
  up: number;
  down: number;
  /** The same for /api/ paths only. */
  apiRequests: number;
  apiUp: number;
  apiDown: number;
}

export interface DelayProxy {
  baseUrl: string;
  /** Requests the proxy has passed on so far. */
  count(): number;
  stats(): LinkStats;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Drop the browser's Accept-Encoding, so the server answers uncompressed (as before issue #11). */
  identity?: boolean;
}

const SLICE = 8 * 1024;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One direction of the link: bytes leave one after another at its bit rate. */
class Pipe {
  private freeAt = 0;
  constructor(private readonly bitsPerSecond: number) {}
  /** Resolves when `bytes` queued now have crossed (behind everything queued earlier). */
  cross(bytes: number): Promise<void> {
    if (!Number.isFinite(this.bitsPerSecond)) return Promise.resolve();
    const now = performance.now();
    this.freeAt = Math.max(now, this.freeAt) + (bytes * 8 * 1000) / this.bitsPerSecond;
    return sleep(this.freeAt - now);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function headBytes(first: string, raw: string[]): number {
  let n = first.length + 2 + 2;
  for (let i = 0; i < raw.length; i += 2) n += raw[i].length + 2 + raw[i + 1].length + 2;
  return n;
}

/** The baseline's fixed delay per request, no bandwidth limit. */
export function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  return startLinkProxy(target, { roundTripMs: delayMs, downBitsPerSecond: Infinity, upBitsPerSecond: Infinity }, { fixedDelay: true });
}

export async function startLinkProxy(target: string, link: LinkProfile, options: ProxyOptions & { fixedDelay?: boolean } = {}): Promise<DelayProxy> {
  const to = new URL(target);
  // A fresh upstream connection per request: reusing idle keep-alive sockets raced the server's
  // 5 s keep-alive timeout (ECONNRESET mid-run). On loopback a connect costs well under 1 ms.
  const agent = new Agent({ keepAlive: false });
  const up = new Pipe(link.upBitsPerSecond);
  const down = new Pipe(link.downBitsPerSecond);
  const half = link.roundTripMs / 2;
  const known = new WeakSet<Socket>();
  const stats: LinkStats = { requests: 0, up: 0, down: 0, apiRequests: 0, apiUp: 0, apiDown: 0 };

  const server: Server = createServer(async (req, res) => {
    const api = (req.url ?? '').startsWith('/api/');
    const count = (dir: 'up' | 'down', n: number) => {
      stats[dir] += n;
      if (api) stats[dir === 'up' ? 'apiUp' : 'apiDown'] += n;
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (options.fixedDelay) await sleep(link.roundTripMs);
    else {
      if (!known.has(req.socket)) {
        known.add(req.socket);
        await sleep(link.roundTripMs); // TCP handshake on a new connection
      }
      const sent = headBytes(`${req.method} ${req.url} HTTP/1.1`, req.rawHeaders) + body.length;
      count('up', sent);
      await up.cross(sent);
      await sleep(half);
    }
    stats.requests += 1;
    if (api) stats.apiRequests += 1;
    // The browser's Host stays: the link is transparent, and the server builds its sign-in
    // redirect from it (a rewritten Host sent the browser around the proxy after sign-in).
    const headers: IncomingHttpHeaders = { ...req.headers };
    if (options.identity) headers['accept-encoding'] = 'identity';
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers, agent }, async (answer: IncomingMessage) => {
      try {
        if (!options.fixedDelay) {
          await sleep(half);
          const head = headBytes(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`, answer.rawHeaders);
          count('down', head);
          await down.cross(head);
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        for await (const chunk of answer) {
          const buf = chunk as Buffer;
          for (let i = 0; i < buf.length; i += SLICE) {
            const slice = buf.subarray(i, i + SLICE);
            if (res.destroyed) {
              // The browser gave up on this answer (a page closed): stop sending it.
              answer.destroy();
              return;
            }
            if (!options.fixedDelay) {
              count('down', slice.length);
              await down.cross(slice.length);
            }
            if (!res.write(slice)) await drainedOrClosed(res);
          }
        }
        res.end();
      } catch (err) {
        res.destroy(err as Error);
      }
    });
    upstream.on('error', (err) => {
      if (res.headersSent) res.destroy(err);
      else {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    });
    upstream.end(body);
  });
  const port = await freePort();
  await new Promise<void>((res) => server.listen(port, '127.0.0.1', () => res()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count: () => stats.requests,
    stats: () => ({ ...stats }),
    close: () =>
      new Promise<void>((res) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}
