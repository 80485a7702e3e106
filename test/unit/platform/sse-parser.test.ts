/**
 * The event-stream parser of the tablet's change stream (issue #24.2, src/platform/sse-parser.ts):
 * what the server sends, split at any byte, comes out as the same messages.
 */
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../../src/platform/sse-parser';

function parse(...chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((m) => out.push(m));
  for (const c of chunks) parser.feed(c);
  return out;
}

const SERVER = 'retry: 5000\n: connected\n\nevent: changed\ndata: {"entities":["Participant"]}\n\n: keep-alive\n\n';
const EXPECTED: SseMessage[] = [
  { type: 'retry', ms: 5000 },
  { type: 'comment', text: 'connected' },
  { type: 'event', event: 'changed', data: '{"entities":["Participant"]}' },
  { type: 'comment', text: 'keep-alive' },
];

describe('SSE parser', () => {
  it('reads what the server sends: retry, comments and a changed event', () => {
    expect(parse(SERVER)).toEqual(EXPECTED);
  });

  it('gives the same messages however the bytes are split', () => {
    for (let cut = 1; cut < SERVER.length; cut++) expect(parse(SERVER.slice(0, cut), SERVER.slice(cut)), `cut at ${cut}`).toEqual(EXPECTED);
    expect(parse(...SERVER.split(''))).toEqual(EXPECTED);
  });

  it('takes CRLF and CR line ends, also split between chunks', () => {
    const crlf = SERVER.replace(/\n/g, '\r\n');
    expect(parse(crlf)).toEqual(EXPECTED);
    for (let cut = 1; cut < crlf.length; cut++) expect(parse(crlf.slice(0, cut), crlf.slice(cut))).toEqual(EXPECTED);
    expect(parse(SERVER.replace(/\n/g, '\r'))).toEqual(EXPECTED);
  });

  it('joins data lines, defaults the event name, keeps the id and drops a block without data', () => {
    expect(parse('\uFEFFdata: a\ndata:b\nid: 7\n\nevent: lonely\n\ndata\n\n')).toEqual([
      { type: 'event', event: 'message', data: 'a\nb', id: '7' },
      { type: 'event', event: 'message', data: '', id: '7' },
    ]);
  });

  it('waits for the blank line: a half-sent event is not an event yet', () => {
    expect(parse('event: changed\ndata: {}\n')).toEqual([]);
  });

  it('ignores unknown fields and a retry that is not a number', () => {
    expect(parse('foo: bar\nretry: soon\ndata: x\n\n')).toEqual([{ type: 'event', event: 'message', data: 'x' }]);
  });
});
