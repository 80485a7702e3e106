/** A scripted fetch for client tests: records each call and answers from a queue. */
export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> } | Error | 'hang';

export function fakeFetch(replies: Reply[] = []) {
  const calls: RecordedCall[] = [];
  const queue = [...replies];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    calls.push({ url: String(input), method: init.method ?? 'GET', headers: new Headers(init.headers), body });
    const reply = queue.shift() ?? { status: 200, body: {} };
    if (reply === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
      });
    }
    if (reply instanceof Error) throw reply;
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(text === '' ? null : text, { status: reply.status ?? 200, headers: reply.headers });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}
