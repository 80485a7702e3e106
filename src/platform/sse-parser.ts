/**
 * A Server-Sent Events parser (the HTML standard's "event stream interpretation") for a stream
 * read with fetch (issue #24.2; the token goes in a header, which EventSource cannot send). Text
 * goes in as it arrives, split anywhere; messages come out: an event when a blank line ends its
 * block (`event:` defaults to "message", `data:` lines joined with "\n", a block without data is
 * dropped), `retry:` as soon as it is read, and comment lines (`: keep-alive`), which the sync
 * engine counts as signs of life. Lines end with LF, CRLF or CR; a leading BOM is dropped.
 *
 * Not the `eventsource-parser` package: its comments callback is the part we need most and this is
 * 60 lines with its own tests; one dependency less in the app's start bundle.
 */
export type SseMessage =
  | { type: 'event'; event: string; data: string; id?: string }
  | { type: 'comment'; text: string }
  | { type: 'retry'; ms: number };

export interface SseParser {
  feed(chunk: string): void;
}

export function createSseParser(emit: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let started = false;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  /** A CR ended the last chunk: an LF starting the next one belongs to it. */
  let pendingCr = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) emit({ type: 'event', event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return emit({ type: 'comment', text: text.slice(1).replace(/^ /, '') });
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) emit({ type: 'retry', ms: Number(value) });
  };

  return {
    feed(chunk) {
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      if (!started && text.length > 0) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        line(buffer.slice(start, i));
        if (ch === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
  };
}
