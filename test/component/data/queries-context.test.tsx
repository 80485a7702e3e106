import { afterEach, describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { db as appDb, PassageDB } from '../../../src/data/db';
import { resetDataContext, setDataContext } from '../../../src/data/context';
import { createParticipant } from '../../../src/data/commands/participants';
import { createCohort } from '../../../src/data/commands/cohorts';
import { useParticipant, useParticipantCounts } from '../../../src/data/queries/participants';
import { useCohort } from '../../../src/data/queries/cohorts';

// Queries and commands reach the database the same way (the data context), so a test — or the
// runtime — that points the context at a database sees its writes in its reads.
describe('queries read the data context\'s database, like commands', () => {
  afterEach(() => resetDataContext());

  it('a record created in a fresh database is what the hooks show', async () => {
    const fresh = new PassageDB(`queries-context-${Math.random()}`);
    setDataContext({ db: fresh, userId: 'u1' });
    const p = await createParticipant({ first_name: 'Ana', last_name: 'Ruiz', custody_status: 'released' });
    const c = await createCohort({ program_id: 'p1', site_id: 's1', cohort_code: 'CTX-1', status: 'planned' });

    const participant = renderHook(() => useParticipant(p.id));
    const counts = renderHook(() => useParticipantCounts());
    const cohort = renderHook(() => useCohort(c.id));
    await waitFor(() => expect(participant.result.current?.first_name).toBe('Ana'));
    await waitFor(() => expect(counts.result.current).toEqual({ total: 1, inCustody: 0, released: 1 }));
    await waitFor(() => expect(cohort.result.current?.cohort_code).toBe('CTX-1'));
    // The app's default database was never touched.
    expect(await appDb.participants.get(p.id)).toBeUndefined();
  });
});
