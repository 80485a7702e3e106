/**
 * `GET /api/apps/:appId/events` (issue #24.2, a Passage extension; a plain platform server answers
 * 404 and the tablet polls): a Server-Sent Events stream that says "records of this app changed"
 * (`event: changed`, data `{entities: [...]}`; see http/change-streams.ts). It carries no record,
 * only entity names, and the tablet then pulls what it may see. The token travels in the
 * `Authorization: Bearer` header (the tablet reads the stream with fetch, never with an
 * EventSource, whose URL would have to carry it), and the caller must be allowed to read records:
 * 401 without a valid token, 403 for an account not approved, as every data route. The token is
 * re-checked while the stream is open: a revoked device hears `event: revoked` and the stream
 * ends; a token that no longer passes (session revoked, user disabled) ends it without a word.
 *
 * Headers: `Cache-Control: no-store, no-transform` (no cache keeps it; the compression middleware
 * and proxies leave it unbuffered), `X-Accel-Buffering: no` (nginx passes it through at once).
 */
import { Hono } from 'hono';
import type { ChangeStreams } from '../http/change-streams';
import { checkStanding } from '../auth/principal';
import { authorize, checkApp, type ServerContext } from './context';

export function eventRoutes(ctx: ServerContext, streams: ChangeStreams) {
  const r = new Hono();
  r.get('/:appId/events', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { claims } = await authorize(ctx, c, 'read', 'Participant');
    // Re-checked every keep-alive tick and on a revocation (http/change-streams.ts).
    const guard = { deviceId: claims.did ?? null, userId: claims.sub, check: () => checkStanding(ctx.store, ctx.appId, claims) };
    const body = await streams.open(ctx.appId, c.req.raw.signal, guard);
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
