/**
 * Issue #26: a CSV export reports itself to the audit. The notice is kept on the tablet until the
 * server has it: offline it waits for the next sync; it is never lost to a failed request.
 */
import { describe, expect, it } from 'vitest';
import { makeHarness } from './harness';
import { reportExport } from '../../../src/data/commands/export-notice';
import { readExportNotices } from '../../../src/data/sync/export-notices';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { createPlatformClient } from '../../../src/platform';
import type { PlatformClientLike } from '../../../src/data/platform-like';

const QUIET = { probeMs: 10 * 60_000 };

describe('issue #26: export notices', () => {
  it('an export made offline is kept on the tablet and reported at the next sync, then forgotten', async () => {
    const h = makeHarness({ tuning: QUIET });
    await h.engine.start();
    await h.settle();
    h.transport.offline = true;
    const madeAt = new Date(h.clock.now()).toISOString();
    await reportExport(h.data, { kind: 'attendance', rowCount: 42, filters: { cohort_id: 'c1' } });
    await h.advance(30 * 60_000);
    expect(h.transport.exportNotices).toEqual([]);
    expect(await readExportNotices(h.db)).toEqual([expect.objectContaining({ user_id: 'user-1', notice: { kind: 'attendance', row_count: 42, filters: { cohort_id: 'c1' }, exported_at: madeAt } })]);
    h.transport.offline = false;
    h.engine.syncNow();
    await h.settle();
    expect(h.transport.exportNotices).toEqual([{ kind: 'attendance', row_count: 42, filters: { cohort_id: 'c1' }, exported_at: madeAt }]);
    expect(await readExportNotices(h.db)).toEqual([]);
  });

  it('online, the notice goes with the sync the export starts', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    await reportExport(h.data, { kind: 'audit', rowCount: 3 });
    await h.advance(2_000);
    expect(h.transport.exportNotices).toEqual([expect.objectContaining({ kind: 'audit', row_count: 3 })]);
    expect(h.transport.exportNotices[0]).not.toHaveProperty('filters');
  });

  it('a server error keeps the notice for the next cycle; a refusal (4xx) lets it go', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    h.transport.failNext({ method: 'reportExport' }, { kind: 'status', status: 503 });
    await reportExport(h.data, { kind: 'audit', rowCount: 1 });
    await h.advance(2_000);
    expect(await readExportNotices(h.db)).toHaveLength(1);
    h.engine.syncNow();
    await h.settle();
    expect(h.transport.exportNotices).toHaveLength(1);
    expect(await readExportNotices(h.db)).toEqual([]);

    h.transport.failNext({ method: 'reportExport' }, { kind: 'status', status: 400, message: 'bad kind' });
    await reportExport(h.data, { kind: 'audit', rowCount: 2 });
    await h.advance(2_000);
    expect(await readExportNotices(h.db)).toEqual([]);
    expect(h.transport.exportNotices).toHaveLength(1);
  });

  it('S11: only the signed-in user’s notices are sent; another user’s wait for them', async () => {
    const h = makeHarness();
    const other = { ...h.data, userId: 'user-2' };
    await reportExport(other, { kind: 'attendance', rowCount: 5 });
    await reportExport(h.data, { kind: 'attendance', rowCount: 6 });
    await h.engine.start();
    await h.settle();
    expect(h.transport.exportNotices.map((n) => n.row_count)).toEqual([6]);
    expect((await readExportNotices(h.db)).map((n) => n.user_id)).toEqual(['user-2']);
  });

  it('the platform transport calls auditExport, and a server without it (404) is reported as absent', async () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    let status = 200;
    const client = createPlatformClient({
      serverUrl: 'http://passage.test',
      appId: 'app',
      getToken: () => 't',
      originUrl: 'http://passage.test/',
      fetch: async (input, init) => {
        seen.push({ url: String(input), body: JSON.parse(String(init?.body)) });
        return new Response(status === 200 ? JSON.stringify({ ok: true }) : JSON.stringify({ message: 'Not found' }), { status });
      },
    }) as unknown as PlatformClientLike;
    const transport = createPlatformTransport(client, 'me');
    const notice = { kind: 'audit', row_count: 9, exported_at: '2026-01-15T09:00:00.000Z' };
    expect(await transport.reportExport!(notice)).toBe(true);
    expect(seen).toEqual([{ url: 'http://passage.test/api/apps/app/functions/auditExport', body: notice }]);
    status = 404;
    expect(await transport.reportExport!(notice)).toBe(false);
  });
});
