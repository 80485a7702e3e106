/**
 * One log line per request (issue #25.5): `{req_id, method, route, status, ms}` and nothing else, so
 * no token, password, code, e-mail or search term can reach the log through it. `route` is the
 * matched pattern (`/api/apps/:appId/entities/:entity/:id`), never the path (which holds ids, and in
 * `/User?q=…` names): query strings are never logged.
 *
 * X-Request-Id: a caller's (or proxy's) id is kept when it is a plain token of at most 128
 * characters, otherwise a fresh UUID; either way it is sent back, so a user's report and the
 * proxy's log can be matched to these lines.
 *
 * Streams (text/event-stream) are logged when their headers are sent, like any answer; how long
 * they then stay open is not a request's duration, so they are never reported as slow.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from './logger';

const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const KEY = 'passage.requestId';
/** Answers slower than this are logged at `warn` (streams excepted). */
export const SLOW_REQUEST_MS = 2_000;
/** Probes arrive every few seconds from each proxy: logged at debug, not info. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz']);

export function requestIdOf(c: Context): string | undefined {
  return (c as unknown as { get(k: string): string | undefined }).get(KEY);
}

export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (c as unknown as { set(k: string, v: string): void }).set(KEY, id);
    try {
      await next();
    } finally {
      c.header('X-Request-Id', id);
      const ms = Math.round(performance.now() - started);
      const status = c.res.status;
      const route = routePath(c) || 'unmatched';
      const stream = (c.res.headers.get('content-type') ?? '').startsWith('text/event-stream');
      const line = { req_id: id, method: c.req.method, route, status, ms };
      if (status >= 500) logger.error(line, 'request');
      else if (ms >= SLOW_REQUEST_MS && !stream) logger.warn(line, 'slow request');
      else if (QUIET_ROUTES.has(route)) logger.debug(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
