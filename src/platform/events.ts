/**
 * `GET {serverUrl}/api/apps/{appId}/events` (issue #24.2, Passage's change stream) read with fetch
 * and a ReadableStream, so the token travels in the Authorization header like every other call
 * (EventSource could only carry it in the URL, where proxies and logs keep it). Yields the
 * stream's messages as they arrive (sse-parser.ts) until the server ends it or `signal` aborts.
 *
 * Failures are PlatformErrors like any call: an answer other than 2xx carries its status (404 from
 * a server without the extension), no answer has none. No 30 s timeout here: the stream is meant
 * to stay open; the sync engine notices a silent one itself (no keep-alive within a minute).
 */
import { PlatformError, errorCodeFrom, errorMessageFrom, parseRetryAfter } from './errors';
import { createSseParser, type SseMessage } from './sse-parser';
import type { TransportConfig } from './transport';

export type { SseMessage };

export interface EventsClient {
  open(signal: AbortSignal): AsyncIterable<SseMessage>;
}

export function createEventsClient(config: TransportConfig): EventsClient {
  const doFetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const url = `${config.serverUrl.replace(/\/+$/, '')}/api/apps/${config.appId}/events`;

  return {
    async *open(signal) {
      const headers = new Headers({ Accept: 'text/event-stream', 'X-App-Id': String(config.appId) });
      const token = config.getToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      let res: Response;
      try {
        res = await doFetch(url, { method: 'GET', headers, signal, cache: 'no-store' });
      } catch (err) {
        throw new PlatformError(err instanceof Error && err.message ? err.message : 'Network Error', { code: 'NETWORK_ERROR' });
      }
      try {
        config.onAnswer?.({ status: res.status, ok: res.ok });
      } catch {
        // A listener's bug must not fail the stream.
      }
      if (!res.ok || !res.body) {
        const text = await res.text().catch(() => '');
        let data: unknown = text;
        try {
          data = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        throw new PlatformError(errorMessageFrom(data, `Request failed with status code ${res.status}`), {
          status: res.status,
          code: errorCodeFrom(data, null),
          data,
          retryAfterSeconds: parseRetryAfter(res.headers.get('retry-after'), Date.now()),
        });
      }
      const reader = res.body.getReader();
      // fetch aborts the body with the signal; cancelling the reader too ends a pending read at once.
      const stop = () => void reader.cancel().catch(() => undefined);
      signal.addEventListener('abort', stop, { once: true });
      const decoder = new TextDecoder();
      const queue: SseMessage[] = [];
      const parser = createSseParser((message) => queue.push(message));
      try {
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch (err) {
            if (signal.aborted) return;
            throw new PlatformError(err instanceof Error && err.message ? err.message : 'Network Error', { code: 'NETWORK_ERROR' });
          }
          if (chunk.done || signal.aborted) return;
          parser.feed(decoder.decode(chunk.value, { stream: true }));
          while (queue.length > 0) yield queue.shift()!;
        }
      } finally {
        signal.removeEventListener('abort', stop);
        reader.cancel().catch(() => undefined);
      }
    },
  };
}
