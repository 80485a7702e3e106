/**
 * S18: the platform transport turns the change stream's messages into the engine's notices:
 * `changed` names entities, `revoked` says this tablet was revoked (issue #24.4), anything else
 * (comments, `retry:`, an event it does not know) only shows the stream is alive.
 */
import { describe, expect, it } from 'vitest';
import type { PlatformClientLike, SseMessageLike } from '../../../src/data/platform-like';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import type { ServerNotice } from '../../../src/data/sync/types';

function transportSaying(messages: SseMessageLike[]) {
  const client = {
    entities: () => ({}),
    events: {
      async *open() {
        yield* messages;
      },
    },
  } as unknown as PlatformClientLike;
  return createPlatformTransport(client, 'coach-1');
}

describe('S18 the change stream as notices', () => {
  it('S18: maps changed, revoked and everything else', async () => {
    const transport = transportSaying([
      { type: 'retry', ms: 5000 },
      { type: 'comment', text: 'connected' },
      { type: 'event', event: 'changed', data: '{"entities":["Participant"]}' },
      { type: 'event', event: 'revoked', data: '{}' },
      { type: 'event', event: 'something-new', data: '{}' },
    ]);
    const notices: ServerNotice[] = [];
    for await (const notice of transport.openEvents!(new AbortController().signal)) notices.push(notice);
    expect(notices).toEqual([
      { kind: 'alive' },
      { kind: 'alive' },
      { kind: 'changed', entities: ['Participant'] },
      { kind: 'revoked' },
      { kind: 'alive' },
    ]);
  });
});
