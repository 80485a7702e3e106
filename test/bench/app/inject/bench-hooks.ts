/**
 * Evaluated in the signed-in app page (bundled by ../inject-bundle.ts): the app's own data layer,
 * as a second Dexie connection to the same database, so the bench can queue 1,000 ops with the
 * real command code (1,000 form submissions through the UI would measure typing, not sync) and
 * read the mirror and outbox without guessing their format.
 */
import { createParticipant } from '../../../../src/data/commands/participants';
import { dataContext, setDataContext } from '../../../../src/data/context';

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
  /** Phone numbers of participants in the local mirror, by id. */
  async phones(ids: string[]): Promise<(string | null)[]> {
    const rows = await dataContext().db.participants.bulkGet(ids);
    return rows.map((r) => (r?.phone as string | null | undefined) ?? null);
  },
};

(window as unknown as { __benchHooks: typeof hooks }).__benchHooks = hooks;
