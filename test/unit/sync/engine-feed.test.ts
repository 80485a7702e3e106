import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { ScriptedTransport, TransportFailure } from '../../support/scripted-transport';
import { updateParticipant } from '../../../src/data/commands/participants';
import { FEED_CURSOR_KEY } from '../../../src/data/sync/feed-pull';
import type { ChangeFeedAnswer, ChangeFeedRequest } from '../../../shared/change-feed';
import type { EntityName } from '../../../shared/entities';

/**
 * Issue #24.1, docs/design.md S17: the engine's side of the change feed, against a scripted
 * transport whose server keeps a change log in commit order (each record once, at its latest
 * change; deletions as ids). After the first sync, "anything new?" is one feed request.
 */
class FeedTransport extends ScriptedTransport {
  /** Each record's latest change, in order (a record moves to the end when it changes again). */
  private log: Array<{ entity: EntityName; id: string; deleted: boolean }> = [];
  private base = 0;
  readonly feedCalls: ChangeFeedRequest[] = [];
  /** A plain platform: the function does not exist (404 → null). */
  absent = false;
  /** The next request with a cursor gets 410 CURSOR_EXPIRED. */
  expireNext = false;
  pageSize = 1000;

  record(entity: EntityName, id: string, deleted = false): void {
    const at = this.log.findIndex((c) => c.entity === entity && c.id === id);
    if (at >= 0) {
      this.log.splice(at, 1);
      this.base++;
    }
    this.log.push({ entity, id, deleted });
  }
  write(entity: EntityName, id: string, data: Record<string, unknown>) {
    const row = this.server.update(entity, id, data)!;
    this.record(entity, id);
    return row;
  }
  add(entity: EntityName, body: Record<string, unknown>) {
    const row = this.server.create(entity, body);
    this.record(entity, row.id);
    return row;
  }
  drop(entity: EntityName, id: string) {
    this.server.remove(entity, id);
    this.record(entity, id, true);
  }

  async changeFeed(request: ChangeFeedRequest): Promise<ChangeFeedAnswer | null> {
    this.feedCalls.push(request);
    await Promise.resolve();
    if (this.offline) throw new TransportFailure('Failed to fetch', undefined, 'NETWORK_ERROR');
    if (this.absent) return null;
    // A position is how many changes were ever logged (entries moved to the end count once more).
    const total = () => this.base + this.log.length;
    if (request.cursor === null) return { changes: {}, cursor: String(total()), more: false };
    if (this.expireNext) {
      this.expireNext = false;
      throw new TransportFailure('Deletions this old are no longer kept.', 410, 'CURSOR_EXPIRED');
    }
    const from = Number(request.cursor) - this.base;
    const page = this.log.slice(Math.max(0, from), Math.max(0, from) + this.pageSize);
    const changes: ChangeFeedAnswer['changes'] = {};
    for (const c of page) {
      const part = (changes[c.entity] ??= { rows: [], deleted: [] });
      if (c.deleted) part.deleted.push(c.id);
      else part.rows.push(this.server.get(c.entity, c.id)!);
    }
    const next = this.base + Math.max(0, from) + page.length;
    return { changes, cursor: String(next), more: next < total() };
  }
}

/** Calls other than the feed's in the last cycle. */
const others = (h: Harness, since: number) => h.transport.calls.slice(since);

async function synced(opts: { pageSize?: number } = {}) {
  const transport = new FeedTransport();
  if (opts.pageSize) transport.pageSize = opts.pageSize;
  const h = makeHarness({ transport });
  const people = Array.from({ length: 12 }, (_, i) => transport.add('Participant', { first_name: `P${i}`, last_name: 'Test' }));
  const cohort = transport.add('Cohort', { cohort_code: 'C-1' });
  await h.engine.start();
  await h.settle();
  return { h, transport, people, cohort };
}

describe('S17 change feed: the engine', () => {
  it('S17 takes a feed cursor before its first per-entity pull and keeps it once the first sync is done', async () => {
    const { h, transport } = await synced();
    expect(transport.feedCalls).toEqual([{ cursor: null }]);
    expect(transport.callsOf('filter').length).toBeGreaterThan(0);
    expect((await h.db.meta.get(FEED_CURSOR_KEY))?.value).toEqual({ userId: 'user-1', cursor: '13' });
  });

  it('S17 10 changes by another client arrive with one feed request and no per-entity request', async () => {
    const { h, transport, people } = await synced();
    const before = transport.calls.length;
    const feedBefore = transport.feedCalls.length;
    for (const p of people.slice(0, 10)) transport.write('Participant', p.id, { last_name: 'Renamed' });
    h.engine.syncNow();
    await h.settle();
    expect(transport.feedCalls.length - feedBefore).toBe(1);
    expect(others(h, before)).toEqual([]);
    const renamed = (await h.db.participants.toArray()).filter((p) => p.last_name === 'Renamed');
    expect(renamed).toHaveLength(10);
    // The per-entity cursor moved on too, so a fallback later reads from here.
    const state = await h.db.syncState.get('Participant');
    expect(state?.cursor).toBe(transport.server.get('Participant', people[9].id)!.updated_date);
  });

  it('S17 follows `more` pages and writes each with its cursor', async () => {
    const { h, transport, people } = await synced({ pageSize: 4 });
    for (const p of people) transport.write('Participant', p.id, { phone: '555' });
    const feedBefore = transport.feedCalls.length;
    h.engine.syncNow();
    await h.settle();
    expect(transport.feedCalls.length - feedBefore).toBe(3);
    expect((await h.db.participants.toArray()).every((p) => p.phone === '555')).toBe(true);
  });

  it('S17 deletions arrive: the row leaves, and one with a queued edit becomes a vanished conflict', async () => {
    const { h, transport, people } = await synced();
    // A coach's edit waits out a backoff (the server answered 500) when the admin deletes.
    transport.failNext({ method: 'update' }, { kind: 'status', status: 500 });
    await updateParticipant(h.data, people[0].id, { phone: '2' });
    await h.engine.runOnce();
    transport.drop('Participant', people[0].id);
    transport.drop('Participant', people[1].id);
    await h.engine.runOnce();
    const ids = (await h.db.participants.toArray()).map((p) => p.id);
    expect(ids).not.toContain(people[0].id);
    expect(ids).not.toContain(people[1].id);
    expect(await h.db.conflicts.toArray()).toEqual([expect.objectContaining({ kind: 'vanished', record_id: people[0].id, status: 'open' })]);
    expect((await h.db.outbox.toArray())[0]).toMatchObject({ state: 'rejected', last_error: { status: 404 } });
  });

  it('S17 on a server without the feed the engine pulls per entity, and stops asking for the feed', async () => {
    const transport = new FeedTransport();
    transport.absent = true;
    const h = makeHarness({ transport });
    const p = transport.add('Participant', { first_name: 'A', last_name: 'B' });
    await h.engine.start();
    await h.settle();
    transport.write('Participant', p.id, { last_name: 'C' });
    const pulls = transport.callsOf('filter').length;
    h.engine.syncNow();
    await h.settle();
    expect(transport.feedCalls).toEqual([{ cursor: null }]);
    expect(transport.callsOf('filter').length - pulls).toBe(9); // one "anything new?" per entity
    expect((await h.db.participants.get(p.id))?.last_name).toBe('C');
  });

  it('S17 an expired cursor: per-entity pulls and a reconcile, then a fresh cursor and the feed again', async () => {
    const { h, transport, people } = await synced();
    // A deletion the tablet missed (its tombstone pruned on the server).
    transport.server.remove('Participant', people[5].id);
    transport.write('Participant', people[2].id, { last_name: 'Later' });
    transport.expireNext = true;
    const before = transport.calls.length;
    h.engine.syncNow();
    await h.settle();
    const calls = others(h, before);
    expect(calls.filter((c) => c.method === 'filter' && c.args[1] === 'updated_date').length).toBe(9);
    expect(calls.some((c) => c.method === 'filter' && c.args[1] === 'id')).toBe(true); // the reconcile (S6)
    expect(await h.db.participants.get(people[5].id)).toBeUndefined();
    expect((await h.db.participants.get(people[2].id))?.last_name).toBe('Later');
    expect(transport.feedCalls.slice(-1)).toEqual([{ cursor: null }]);

    transport.write('Participant', people[3].id, { last_name: 'Feed again' });
    const after = transport.calls.length;
    h.engine.syncNow();
    await h.settle();
    expect(others(h, after)).toEqual([]);
    expect((await h.db.participants.get(people[3].id))?.last_name).toBe('Feed again');
  });

  it('S17 offline: the feed request fails like any pull and the cursor stays', async () => {
    const { h, transport, people } = await synced();
    const cursor = (await h.db.meta.get(FEED_CURSOR_KEY))?.value;
    transport.offline = true;
    transport.write('Participant', people[0].id, { last_name: 'Away' });
    h.engine.syncNow();
    await h.settle();
    expect((await h.db.meta.get(FEED_CURSOR_KEY))?.value).toEqual(cursor);
    transport.offline = false;
    h.engine.syncNow();
    await h.settle();
    expect((await h.db.participants.get(people[0].id))?.last_name).toBe('Away');
  });
});
