/**
 * Issue #24.2: the open Server-Sent Events streams of this server process and what they are told.
 * The store's change notices (PostgreSQL NOTIFY, so writes through any instance on the database)
 * fan out to every stream of the app whose records changed, as
 *
 *   event: changed
 *   data: {"entities":["Participant"]}
 *
 * coalesced per stream: the first notice goes out at once, later ones within `coalesceMs` (250 ms)
 * are gathered into one event at its end, so a burst of writes is one event and the tablet pulls
 * once. Every stream gets `: keep-alive` every `keepAliveMs` (25 s): proxies close connections
 * that stay silent (commonly after 60 s), and the tablet takes a silent stream for one a proxy
 * buffers. The first bytes (`retry:` and a comment) go out at once, so the tablet knows the stream
 * arrives unbuffered. `close()` ends every stream (graceful shutdown must not wait for them).
 *
 * A stream opened with a guard (routes/events.ts: the caller's token) re-checks it at every
 * keep-alive tick, one store read per stream (auth/principal.ts checkStanding), when it opens for
 * a device (a device revoked in mode flush may still open one), and at once when
 * `recheck` names its device or user (an administrator revoked them through this instance; other
 * instances learn at their next tick). A revoked device's stream gets
 *
 *   event: revoked
 *   data: {}
 *
 * and ends (no reason here: the tablet asks deviceStatus, which says the mode and reason); a token
 * that no longer passes (session revoked, user disabled, token version raised) ends the stream
 * without an event, and the tablet's reopen gets the 401 that asks to sign in again.
 */
import type { ChangeNotice, Store } from '../store/types';

export interface ChangeStreamOptions {
  /** Comment line interval (default 25 s); tests shorten it. */
  keepAliveMs?: number;
  /** At most one event per stream per this many ms (default 250). */
  coalesceMs?: number;
  /** The reconnection delay the stream suggests (`retry:`), default 5 s. */
  retryMs?: number;
  /** Timers, injected for tests (defaults: the global ones). */
  timers?: Timers;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** What a stream's token still rests on; `check` is one store read. */
export interface StreamGuard {
  deviceId: string | null;
  userId: string;
  check(): Promise<'ok' | 'device_revoked' | 'ended'>;
}

export interface ChangeStreams {
  /** A new stream of `app`'s notices, live when the promise resolves; ends with `signal`. */
  open(app: string, signal?: AbortSignal, guard?: StreamGuard): Promise<ReadableStream<Uint8Array>>;
  /** Re-checks at once the guards of `app`'s streams of this device or user (a revocation); resolves when done. */
  recheck(app: string, target: { deviceId: string } | { userId: string }): Promise<void>;
  /** How many streams are open (the shutdown test and the bench read it). */
  readonly size: number;
  /** Ends every stream and stops listening. */
  close(): Promise<void>;
}

export const KEEP_ALIVE_MS = 25_000;
export const COALESCE_MS = 250;
export const RETRY_MS = 5_000;

const nodeTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

interface Stream {
  app: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Entities heard while cooling down; [] inside means "anything". */
  pending: Set<string> | null;
  cooling: unknown;
  guard: StreamGuard | null;
  /** A check under way (a slow store is not asked twice for one stream). */
  checking: Promise<void> | null;
  end(): void;
}

const encoder = new TextEncoder();

export function createChangeStreams(store: Pick<Store, 'onChanges'>, options: ChangeStreamOptions = {}): ChangeStreams {
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  const retryMs = options.retryMs ?? RETRY_MS;
  const timers = options.timers ?? nodeTimers;
  const streams = new Set<Stream>();
  let unlisten: Promise<() => Promise<void>> | null = null;
  let keepAlive: unknown = null;
  let closed = false;

  const write = (stream: Stream, text: string) => {
    try {
      stream.controller.enqueue(encoder.encode(text));
    } catch {
      stream.end(); // the reader went away between its cancel and our write
    }
  };

  const send = (stream: Stream, entities: Set<string>) => {
    // An empty set is "anything may have changed" (a lost listening connection): the tablet pulls all.
    write(stream, `event: changed\ndata: ${JSON.stringify({ entities: [...entities].sort() })}\n\n`);
    stream.cooling = timers.setTimeout(() => {
      stream.cooling = null;
      const pending = stream.pending;
      stream.pending = null;
      if (pending) send(stream, pending);
    }, coalesceMs);
  };

  const hear = (notice: ChangeNotice) => {
    for (const stream of streams) {
      if (notice.app !== null && notice.app !== stream.app) continue;
      const entities = new Set(notice.entities);
      if (!stream.cooling) {
        send(stream, entities);
        continue;
      }
      if (!stream.pending) stream.pending = entities;
      else if (stream.pending.size === 0 || entities.size === 0) stream.pending = new Set();
      else for (const e of entities) stream.pending.add(e);
    }
  };

  const check = (stream: Stream): Promise<void> => {
    if (!stream.guard) return Promise.resolve();
    stream.checking ??= stream.guard
      .check()
      .then((standing) => {
        if (!streams.has(stream)) return;
        if (standing === 'device_revoked') write(stream, 'event: revoked\ndata: {}\n\n');
        if (standing !== 'ok') stream.end();
      })
      // A failed read (the database away) keeps the stream: the next tick asks again.
      .catch(() => {})
      .finally(() => {
        stream.checking = null;
      });
    return stream.checking;
  };

  const startKeepAlive = () => {
    if (keepAlive) return;
    keepAlive = timers.setInterval(() => {
      for (const stream of streams) {
        write(stream, ': keep-alive\n\n');
        void check(stream);
      }
    }, keepAliveMs);
  };
  const stopKeepAliveIfIdle = () => {
    if (streams.size > 0 || !keepAlive) return;
    timers.clearInterval(keepAlive);
    keepAlive = null;
  };

  return {
    get size() {
      return streams.size;
    },
    async recheck(app, target) {
      const hit = (guard: StreamGuard | null) =>
        guard !== null && ('deviceId' in target ? guard.deviceId === target.deviceId : guard.userId === target.userId);
      await Promise.all([...streams].filter((s) => s.app === app && hit(s.guard)).map(check));
    },
    async open(app, signal, guard) {
      if (closed) throw new Error('The server is shutting down');
      // Listen before the first stream answers, so a write right after the answer is heard.
      // A failed LISTEN is tried again by the next stream, not remembered.
      unlisten ??= store.onChanges(hear).catch((err) => {
        unlisten = null;
        throw err;
      });
      await unlisten;
      let stream!: Stream;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          let ended = false;
          stream = {
            app,
            controller,
            pending: null,
            cooling: null,
            guard: guard ?? null,
            checking: null,
            end() {
              if (ended) return;
              ended = true;
              streams.delete(stream);
              if (stream.cooling) timers.clearTimeout(stream.cooling);
              signal?.removeEventListener('abort', onAbort);
              stopKeepAliveIfIdle();
              try {
                controller.close();
              } catch {
                // already closed or cancelled
              }
            },
          };
          const onAbort = () => stream.end();
          signal?.addEventListener('abort', onAbort, { once: true });
          streams.add(stream);
          startKeepAlive();
          controller.enqueue(encoder.encode(`retry: ${retryMs}\n: connected\n\n`));
          if (signal?.aborted) stream.end();
          // A device revoked in mode flush still opens (it may send what waits): told at once.
          else if (stream.guard?.deviceId) void check(stream);
        },
        cancel() {
          stream.end();
        },
      });
      return body;
    },
    async close() {
      closed = true;
      for (const stream of [...streams]) stream.end();
      const pending = unlisten;
      unlisten = null;
      if (pending) await (await pending.catch(() => async () => {}))().catch(() => {});
    },
  };
}
