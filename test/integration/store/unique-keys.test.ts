/**
 * Issue #25.2: a database that already holds duplicate cohort codes or user e-mails (made before
 * the unique indexes existed) still starts: the index is left out, a warning names what is
 * duplicated (codes by value, e-mails only by record id), nothing is renamed or lost; once an
 * administrator resolves them, the next start creates the index and the database refuses repeats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../../server/store/errors';
import { createPostgresStore } from '../../../server/store/postgres-store';
import { type SqlClient } from '../../../server/store/sql-client';
import { openPostgres } from '../../../server/store/pg-client';
import { openPglite } from '../../../server/store/pglite-client';
import type { Store } from '../../../server/store/types';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from './pg-test-cluster';
import { createDatabase, type TestDatabase } from '../../support/test-databases';

const meta = { by: null, byId: null };

function cases(open: () => Promise<SqlClient>, release: () => void | Promise<void> = () => {}) {
  let sql: SqlClient;
  let store: Store;
  const warnings: string[] = [];
  const app = `dups-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const indexes = async () =>
    (await sql.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE indexname IN ('records_cohort_code', 'records_user_email') ORDER BY 1`)).map((r) => r.name);

  beforeAll(async () => {
    sql = await open();
    store = createPostgresStore(sql, { warn: (m) => warnings.push(m) });
    await store.migrate();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await release();
  });

  it('a start over duplicates leaves the index out, names them, changes no record; the start after they are resolved creates it', async () => {
    expect(await indexes()).toEqual(['records_cohort_code', 'records_user_email']);
    // As a database from before the indexes: duplicates the read-then-write checks let through.
    await sql.query('DROP INDEX records_cohort_code');
    await sql.query('DROP INDEX records_user_email');
    const a = await store.create(app, 'Cohort', { cohort_code: 'FL-SQ-2026Q1' }, meta);
    const b = await store.create(app, 'Cohort', { cohort_code: ' fl-sq-2026q1' }, meta);
    await store.create(app, 'Cohort', { cohort_code: 'OTHER' }, meta);
    const u1 = await store.create(app, 'User', { email: 'twice@example.org' }, meta);
    const u2 = await store.create(app, 'User', { email: 'twice@example.org' }, meta);

    warnings.length = 0;
    await store.migrate();
    expect(await indexes()).toEqual([]);
    expect(warnings).toHaveLength(2);
    const [cohortWarning, userWarning] = warnings;
    expect(cohortWarning).toContain('1 cohort code is used by more than one cohort');
    expect(cohortWarning).toMatch(/"(FL-SQ-2026Q1|fl-sq-2026q1)" \(app dups-[^,]*, ×2\)/);
    expect(cohortWarning).toContain('records_cohort_code not created');
    expect(userWarning).toContain(`records ${u1.id}, ${u2.id}`);
    expect(userWarning, 'no personal data in the log').not.toContain('twice@example.org');
    // Nothing renamed, nothing lost.
    expect((await store.get(app, 'Cohort', b.id))?.cohort_code).toBe(' fl-sq-2026q1');
    expect(await store.count(app, 'User', { email: 'twice@example.org' })).toBe(2);

    // An administrator resolves them; the next start creates both indexes without a word.
    await store.update(app, 'Cohort', b.id, { cohort_code: 'FL-SQ-2026Q1-B' });
    await store.delete(app, 'User', u2.id);
    warnings.length = 0;
    await store.migrate();
    expect(warnings).toEqual([]);
    expect(await indexes()).toEqual(['records_cohort_code', 'records_user_email']);

    const refused = await store.create(app, 'Cohort', { cohort_code: 'fl-sq-2026q1 ' }, meta).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({ kind: 'conflict', code: 'DUPLICATE_VALUE', extra: { field: 'cohort_code' } });
    expect((refused as Error).message).toBe('A cohort with the code fl-sq-2026q1 already exists. Cohort codes must be unique.');
    const renamed = await store.update(app, 'Cohort', b.id, { cohort_code: 'Fl-Sq-2026q1' }).catch((e: unknown) => e);
    expect(renamed).toMatchObject({ code: 'DUPLICATE_VALUE', message: 'A cohort with the code Fl-Sq-2026q1 already exists. Cohort codes must be unique.' });
    expect(await store.create(app, 'User', { email: 'TWICE@example.org' }, meta).catch((e: unknown) => e)).toMatchObject({ code: 'EMAIL_TAKEN', extra: { field: 'email' } });
    // A bulk with one taken code writes none of its rows.
    const bulk = await store.createMany(app, 'Cohort', [{ cohort_code: 'NEW-1' }, { cohort_code: 'other' }], meta).catch((e: unknown) => e);
    expect(bulk).toMatchObject({ code: 'DUPLICATE_VALUE' });
    expect(await store.count(app, 'Cohort', { cohort_code: 'NEW-1' })).toBe(0);
    // The same store answers a re-sent create by its client_ref (S3), not with a 409.
    const first = await store.create(app, 'Cohort', { cohort_code: 'RESENT', client_ref: 'ref-1' }, meta);
    expect((await store.create(app, 'Cohort', { cohort_code: 'RESENT', client_ref: 'ref-1' }, meta)).id).toBe(first.id);
    // Blank codes are not keys; neither are codes of another app.
    await store.createMany(app, 'Cohort', [{ cohort_code: '' }, { cohort_code: '  ' }, {}], meta);
    expect((await store.create(`${app}-other`, 'Cohort', { cohort_code: 'FL-SQ-2026Q1' }, meta)).id).toBeTruthy();
    expect(a.id).toBeTruthy();
  }, 60_000);
}

describe('PGlite', () => {
  cases(() => openPglite('memory://'));
});

describe.skipIf(!postgresInstalled)(`PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  let release = () => {};
  let own: TestDatabase | null = null;
  cases(
    async () => {
      let url: string;
      ({ url, release } = await acquirePostgres());
      // A database of its own: this test drops the unique indexes, which other suites on the
      // shared test cluster rely on.
      own = await createDatabase(url, 'uniq');
      return openPostgres(own.url, 4);
    },
    async () => {
      await own?.drop();
      release();
    },
  );
});
