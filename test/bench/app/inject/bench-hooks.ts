/**
 * Evaluated in the signed-in app page (bundled by ../inject-bundle.ts): the app's own data layer,
 * as a second Dexie connection to the same database, so the bench can queue 1,000 ops with the
 * real command code (1,000 form submissions through the UI would measure typing, not sync) and
 * read the mirror and outbox without guessing their format.
 */
import { createParticipant } from '../../../../src/data/commands/participants';
import { dataContext, setDataContext } from '../../../../src/data/context';
import { PassageDB } from '../../../../src/data/db';

const hooks = {
  /** Queues `n` participant creates for `userId` (S11: ops carry the signed-in user). */
  async queueCreates(userId: string, n: number, tag: string): Promise<void> {
    // No engine in this copy of the data layer: the app's own engine pushes them (sync: null).
    setDataContext({ userId, sync: null });
    for (let i = 0; i < n; i++) {
      await createParticipant({
        first_name: 'Queued',
        last_name: `${tag} ${i + 1}`,
        custody_status: 'in-custody',
        program_status: 'active',
        enrollment_date: new Date().toISOString().slice(0, 10),
      } as Parameters<typeof createParticipant>[0]);
    }
  },
  outboxCount: (): Promise<number> => dataContext().db.outbox.count(),
  /** Rows per table of the local mirror (the facility link's first sync watches them fill). */
  async mirrorCounts(): Promise<Record<string, number>> {
    const db = dataContext().db;
    const tables = ['programs', 'sites', 'users', 'cohorts', 'participants', 'enrollments', 'sessions', 'outcomes'];
    const counts = await Promise.all(tables.map((t) => db.table(t).count()));
    return Object.fromEntries(tables.map((t, i) => [t, counts[i]]));
  },
  /** Why a push did not finish: the outbox by state (and one error each), and the engine's status row. */
  async outboxReport(): Promise<{ states: Record<string, number>; errors: string[]; status: unknown }> {
    const db = dataContext().db;
    const states: Record<string, number> = {};
    const errors = new Set<string>();
    for (const op of await db.outbox.toArray()) {
      states[op.state] = (states[op.state] ?? 0) + 1;
      if (op.last_error) errors.add(`${op.state}: ${op.last_error.status ?? '-'} ${op.last_error.message}`);
    }
    return { states, errors: [...errors].slice(0, 5), status: (await db.meta.get('syncStatus'))?.value ?? null };
  },
  /** Phone numbers of participants in the local mirror, by id. */
  async phones(ids: string[]): Promise<(string | null)[]> {
    const rows = await dataContext().db.participants.bulkGet(ids);
    return rows.map((r) => (r?.phone as string | null | undefined) ?? null);
  },
  /**
   * The floor under the initial sync: the mirror's rows written into a scratch database with the
   * same schema in 5,000-row bulkPuts, nothing else (no network, no rebase, no live queries).
   */
  async idbFloor(): Promise<{ rows: number; ms: number }> {
    const source = dataContext().db;
    const scratch = new PassageDB('passage-bench-floor');
    try {
      const tables = ['programs', 'sites', 'users', 'cohorts', 'participants', 'enrollments', 'sessions', 'outcomes'];
      const data = await Promise.all(tables.map((t) => source.table(t).toArray()));
      const t0 = performance.now();
      let rows = 0;
      for (const [i, t] of tables.entries()) {
        for (let k = 0; k < data[i].length; k += 5000) {
          await scratch.transaction('rw', scratch.table(t), () => scratch.table(t).bulkPut(data[i].slice(k, k + 5000)));
        }
        rows += data[i].length;
      }
      return { rows, ms: performance.now() - t0 };
    } finally {
      scratch.close();
      await scratch.delete();
    }
  },
};

(window as unknown as { __benchHooks: typeof hooks }).__benchHooks = hooks;
