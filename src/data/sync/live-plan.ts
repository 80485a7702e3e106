/**
 * S18, as a pure rule: what the engine does when its change stream ends, by how it ended and how
 * many times in a row it failed. Reopening uses S8's backoff (1 s doubling to 15 minutes, jittered),
 * so a server or proxy that cannot hold a stream costs a handful of requests an hour while the
 * periodic pull (every 60 s, S9) stands in for it.
 */
import { backoffDelay } from './backoff';

export type StreamEnd =
  /** An HTTP answer other than 2xx. */
  | { kind: 'refused'; status: number; retryAfterMs?: number }
  /** No answer, or the connection dropped mid-stream. */
  | { kind: 'unreachable' }
  /** The server ended the stream (it shut down, a proxy's time limit). */
  | { kind: 'ended' }
  /** Nothing arrived for `staleMs`, not even a keep-alive: a dead connection or a proxy that buffers. */
  | { kind: 'stale' };

export type AfterEnd =
  /** Stop trying until the stream is wanted anew (the tab hidden and shown, the connection back). */
  | { action: 'give-up'; checkConnection: boolean }
  | { action: 'reopen'; inMs: number; checkConnection: boolean };

/** Statuses of a server that has no change stream (a plain platform server): poll instead. */
const NO_STREAM = new Set([404, 405, 501]);

/**
 * `failures`: consecutive ends without a healthy stream between them, this one included.
 * `checkConnection`: run a sync cycle now; its requests tell whether the server is still reachable
 * (S9) or the session ended (401, S8), which a dropped stream alone cannot tell.
 */
export function afterStreamEnd(end: StreamEnd, failures: number, random: () => number): AfterEnd {
  switch (end.kind) {
    case 'refused':
      if (NO_STREAM.has(end.status)) return { action: 'give-up', checkConnection: false };
      if (end.status === 401 || end.status === 403) return { action: 'give-up', checkConnection: true };
      if (end.status >= 500 || end.status === 408 || end.status === 429) {
        return { action: 'reopen', inMs: backoffDelay(failures, random, end.retryAfterMs), checkConnection: false };
      }
      return { action: 'give-up', checkConnection: false };
    case 'unreachable':
    case 'stale':
      return { action: 'reopen', inMs: backoffDelay(failures, random), checkConnection: true };
    case 'ended':
      return { action: 'reopen', inMs: backoffDelay(failures, random), checkConnection: false };
  }
}
