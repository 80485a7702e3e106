/**
 * A loopback HTTP proxy that holds every request for a fixed delay before passing it on: the
 * baseline's "facility link" (150 ms per request). Added in the server path rather than by
 * DevTools throttling so the browser's own connection limit (6 per host over HTTP/1.1) and its
 * queueing behave exactly as they would over a slow link.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { freePort } from '../../support/processes';

export interface DelayProxy {
  baseUrl: string;
  /** Requests the proxy has passed on so far. */
  count(): number;
  close(): Promise<void>;
}

export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const to = new URL(target);
  // A fresh upstream connection per request: reusing idle keep-alive sockets raced the server's
  // 5 s keep-alive timeout (ECONNRESET mid-run). On loopback a connect costs well under 1 ms.
  const agent = new Agent({ keepAlive: false });
  let forwarded = 0;
  const server: Server = createServer((req, res) => {
    setTimeout(() => {
      forwarded += 1;
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host }, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      req.pipe(upstream);
    }, delayMs);
  });
  const port = await freePort();
  await new Promise<void>((res) => server.listen(port, '127.0.0.1', () => res()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count: () => forwarded,
    close: () =>
      new Promise<void>((res) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}
