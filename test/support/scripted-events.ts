/**
 * A change stream the test drives (S18), for a scripted transport: each `openEvents` call is one
 * stream the test can make speak (`changed`, `alive`, `revoked`), end, drop, or refuse before it opens.
 * Attach it before the engine is made: `const events = withEvents(transport)`.
 */
import type { ServerNotice, SyncTransport } from '../../src/data/sync/types';
import { TransportFailure } from './scripted-transport';

interface Stream {
  queue: ServerNotice[];
  wake: (() => void) | null;
  end: 'ended' | 'dropped' | null;
  signal: AbortSignal;
}

export class ScriptedEvents {
  /** How many times the engine opened a stream. */
  opens = 0;
  private streams: Stream[] = [];
  private refusals: number[] = [];
  private silent = false;

  /** `offline`: a scripted transport's switch; no stream opens while it is on. */
  constructor(private readonly network: { offline?: boolean } = {}) {}

  /** The open streams (aborted ones leave). */
  get open(): number {
    return this.streams.filter((s) => !s.signal.aborted && !s.end).length;
  }

  /** The next `times` opens are answered with this status (404: a server without the stream). */
  refuseNext(status: number, times = 1): void {
    for (let i = 0; i < times; i++) this.refusals.push(status);
  }

  /** Streams open without a word (as behind a proxy that buffers) until `alive()` or `changed()`. */
  holdBackFirstBytes(on = true): void {
    this.silent = on;
  }

  changed(entities: string[] = ['Participant']): void {
    this.say({ kind: 'changed', entities });
  }

  alive(): void {
    this.say({ kind: 'alive' });
  }

  /** The server says this tablet was revoked (it then ends the stream: call end()). */
  revoked(): void {
    this.say({ kind: 'revoked' });
  }

  /** The server ends the current stream (shutdown). */
  end(): void {
    this.finish('ended');
  }

  /** The connection drops mid-stream (no answer any more). */
  drop(): void {
    this.finish('dropped');
  }

  openEvents = (signal: AbortSignal): AsyncIterable<ServerNotice> => {
    this.opens++;
    const refusal = this.refusals.shift();
    const stream: Stream = { queue: [], wake: null, end: null, signal };
    const silent = this.silent;
    const network = this.network;
    if (refusal === undefined) this.streams.push(stream);
    // What the real server sends first: `retry:` and a comment, so the tablet knows it arrives.
    if (!silent && refusal === undefined) stream.queue.push({ kind: 'alive' });
    signal.addEventListener('abort', () => stream.wake?.());
    return {
      async *[Symbol.asyncIterator]() {
        await Promise.resolve();
        if (network.offline) {
          stream.end = 'dropped';
          throw new TransportFailure('Failed to fetch', undefined, 'NETWORK_ERROR');
        }
        if (refusal !== undefined) throw new TransportFailure(`HTTP ${refusal}`, refusal);
        for (;;) {
          if (signal.aborted) return;
          const next = stream.queue.shift();
          if (next) {
            yield next;
            continue;
          }
          if (stream.end === 'ended') return;
          if (stream.end === 'dropped') throw new TransportFailure('network connection was lost', undefined, 'NETWORK_ERROR');
          await new Promise<void>((wake) => (stream.wake = wake));
          stream.wake = null;
        }
      },
    };
  };

  private current(): Stream | undefined {
    return this.streams.filter((s) => !s.signal.aborted && !s.end).at(-1);
  }

  private say(notice: ServerNotice): void {
    const stream = this.current();
    if (!stream) return;
    stream.queue.push(notice);
    stream.wake?.();
  }

  private finish(how: 'ended' | 'dropped'): void {
    const stream = this.current();
    if (!stream) return;
    stream.end = how;
    stream.wake?.();
  }
}

export function withEvents<T extends SyncTransport>(transport: T): ScriptedEvents {
  const events = new ScriptedEvents(transport as { offline?: boolean });
  (transport as SyncTransport).openEvents = events.openEvents;
  return events;
}
