/**
 * Probes for a proxy or an orchestrator (issue #25.5), outside the app's auth and never cached:
 *
 * - `GET /healthz`: the process is up and answering. Touches nothing else, so a database outage
 *   never makes an orchestrator restart healthy processes (that would not bring the database back).
 * - `GET /readyz`: this instance should get traffic: the database answers within READY_TIMEOUT_MS
 *   and the store's tables are there (migrations ran before the server started listening). 503
 *   with Retry-After otherwise, and at once while the server shuts down (SIGTERM), so the proxy
 *   drains it.
 */
import { Hono } from 'hono';
import { DATABASE_RETRY_AFTER_SECONDS } from '../errors';
import type { Lifecycle } from '../http/lifecycle';
import type { Store } from '../store/types';

/** Longest /readyz waits for the database: well under a proxy's usual 5 s probe timeout. */
export const READY_TIMEOUT_MS = 2_000;

export function healthRoutes(store: Store, lifecycle: Lifecycle) {
  const r = new Hono();
  // Only these two paths: a middleware on '*' here would run for every answer of the app mounted at
  // '/', and its no-store would stop browsers and the service worker caching the built assets.
  const noStore = async (c: { header: (name: string, value: string) => void }, next: () => Promise<void>) => {
    await next();
    c.header('Cache-Control', 'no-store');
  };
  r.use('/healthz', noStore);
  r.use('/readyz', noStore);
  r.get('/healthz', (c) => c.json({ status: 'ok' }));
  r.get('/readyz', async (c) => {
    const notReady = (reason: string) => {
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json({ status: 'unavailable', reason }, 503);
    };
    if (lifecycle.draining) return notReady('shutting_down');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS)));
    try {
      const outcome = await Promise.race([store.ping().then(() => 'ok' as const), late]);
      return outcome === 'ok' ? c.json({ status: 'ok' }) : notReady('database_timeout');
    } catch {
      return notReady('database_unreachable');
    } finally {
      clearTimeout(timer);
    }
  });
  return r;
}
