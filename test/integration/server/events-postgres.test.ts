/**
 * Issue #24.2 on PostgreSQL: change notices cross server instances through LISTEN/NOTIFY. Two app
 * instances (each its own store, its own pool and listening connection) on one database: a change
 * written through instance A reaches a stream open on instance B; a transaction that rolled back
 * sends nothing; a listening connection that was cut is re-established and says "anything may
 * have changed".
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createChangeStreams, type ChangeStreams } from '../../../server/http/change-streams';
import { createStore, type Store } from '../../../server/store/index';
import { readSse } from '../../support/sse-reader';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { SECRET, startTestServer, type TestServer } from './harness';

const appId = `events-${Date.now().toString(36)}`;
let a: TestServer;
let storeB: Store;
let streamsB: ChangeStreams;
let appB: ReturnType<typeof createApp>;
let url = '';
let release = () => {};

describe.skipIf(!postgresInstalled)(`change streams on PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    ({ url, release } = await acquirePostgres());
    a = await startTestServer({ databaseUrl: url, appId, changeStreams: { coalesceMs: 100 } });
    storeB = await createStore({ databaseUrl: url });
    streamsB = createChangeStreams(storeB, { coalesceMs: 100 });
    // The harness issues tokens at its test clock's time; instance B reads the same clock.
    appB = createApp({ store: storeB, appId, jwtSecret: SECRET, changeStreams: streamsB, now: () => new Date(a.clock.ms) });
  });
  afterAll(async () => {
    await streamsB?.close();
    await storeB?.close();
    await a?.close();
    release();
  });

  const openOnB = async (token: string) => {
    const res = await appB.request(`http://localhost/api/apps/${appId}/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const stream = readSse(res);
    await stream.until((t) => t.includes(': connected'));
    return stream;
  };

  it('a change written through instance A reaches a stream on instance B', async () => {
    const stream = await openOnB(a.tokens.coach);
    try {
      const made = await a.request('POST', `/api/apps/${appId}/entities/Participant`, { token: a.tokens.admin, body: { first_name: 'Ines', last_name: 'Moreau' } });
      expect(made.status).toBe(200);
      await stream.until(() => stream.changed().length > 0);
      expect(stream.changed()).toEqual([{ entities: ['Participant'] }]);
    } finally {
      await stream.cancel();
    }
  });

  it('a transaction that rolled back sends nothing', async () => {
    const stream = await openOnB(a.tokens.admin);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO records (app, entity, id, created_date, updated_date, data) VALUES ($1, 'Program', 'rolled-back', '2026-11-22', '2026-11-22', '{}')`, [appId]);
      await client.query('ROLLBACK');
      // Then a committed write: the first event the stream sees is this one, not the rolled-back insert.
      await a.request('POST', `/api/apps/${appId}/entities/Site`, { token: a.tokens.admin, body: { name: 'East Camp' } });
      await stream.until(() => stream.changed().length > 0);
      expect(stream.changed()).toEqual([{ entities: ['Site'] }]);
    } finally {
      await client.end();
      await stream.cancel();
    }
  });

  it('listens again after its connection was cut, and says anything may have changed', async () => {
    const stream = await openOnB(a.tokens.admin);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Instance B's listening connection is the one session of this database that LISTENs on our channel.
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN passage_changes%' AND pid <> pg_backend_pid()`,
      );
      expect(cut.rowCount).toBeGreaterThan(0);
      await stream.until(() => stream.changed().some((e) => e.entities.length === 0));
      const before = stream.changed().length;
      await a.request('POST', `/api/apps/${appId}/entities/Program`, { token: a.tokens.admin, body: { name: 'Masonry' } });
      await stream.until(() => stream.changed().length > before);
      expect(stream.changed().at(-1)).toEqual({ entities: ['Program'] });
    } finally {
      await admin.end();
      await stream.cancel();
    }
  });
});
