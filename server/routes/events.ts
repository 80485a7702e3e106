/**
 * `GET /api/apps/:appId/events` (issue #24.2, a Passage extension; a plain platform server answers
 * 404 and the tablet polls): a Server-Sent Events stream that says "records of this app changed"
 * (`event: changed`, data `{entities: [...]}`; see http/change-streams.ts). It carries no record,
 * only entity names, and the tablet then pulls what it may see. The token travels in the
 * `Authorization: Bearer` header (the tablet reads the stream with fetch, never with an
 * EventSource, whose URL would have to carry it), and the caller must be allowed to read records:
 * 401 without a valid token, 403 for an account not approved, as every data route.
 *
 * Headers: `Cache-Control: no-store, no-transform` (no cache keeps it; the compression middleware
 * and proxies leave it unbuffered), `X-Accel-Buffering: no` (nginx passes it through at once).
 */
import { Hono } from 'hono';
import type { ChangeStreams } from '../http/change-streams';
import { authorize, checkApp, type ServerContext } from './context';

export function eventRoutes(ctx: ServerContext, streams: ChangeStreams) {
  const r = new Hono();
  r.get('/:appId/events', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    await authorize(ctx, c, 'read', 'Participant');
    const body = await streams.open(ctx.appId, c.req.raw.signal);
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store, no-transform',
        'X-Accel-Buffering': 'no',
      },
    });
  });
  return r;
}
