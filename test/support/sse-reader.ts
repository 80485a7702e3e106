/**
 * Reads an event stream's body as text as it arrives (issue #24.2 tests and bench): what came so
 * far, the `changed` events in it, and a wait for a condition on the text (never for a fixed time).
 */
export interface SseReader {
  text(): string;
  /** The data of every `event: changed`, parsed, in order. */
  changed(): Array<{ entities: string[] }>;
  /** Resolves once `test(text)` holds; rejects after `timeoutMs` (a test's upper bound, not a wait). */
  until(test: (text: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once the server ended the stream; rejects after `timeoutMs`. */
  ended(timeoutMs?: number): Promise<void>;
  cancel(): Promise<void>;
}

export function readSse(res: Response): SseReader {
  if (!res.body) throw new Error('The answer has no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const waiters = new Set<() => void>();
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        for (const wake of waiters) wake();
      }
    } catch {
      // cancelled
    }
    done = true;
    for (const wake of waiters) wake();
  })();
  return {
    text: () => text,
    changed: () =>
      text
        .split('\n\n')
        .filter((block) => block.split('\n').includes('event: changed'))
        .map((block) => JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { entities: string[] }),
    until(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test(text)) finish(resolve);
          else if (done) finish(() => reject(new Error(`The stream ended; it said: ${JSON.stringify(text)}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`Not seen within ${timeoutMs} ms; the stream said: ${JSON.stringify(text)}`))), timeoutMs);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    ended(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done) finish(resolve);
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`Still open after ${timeoutMs} ms; it said: ${JSON.stringify(text)}`))), timeoutMs);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
