import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { db as appDb } from '../../../src/data/db';
import { makeDevice } from '../../support/device';
import { withData } from '../../support/with-data';
import { createParticipant } from '../../../src/data/commands/participants';
import { createCohort } from '../../../src/data/commands/cohorts';
import { useParticipant, useParticipantCounts } from '../../../src/data/queries/participants';
import { useCohort } from '../../../src/data/queries/cohorts';

// Queries and commands reach the database the same way (the data context), so a test — or the
// app — that provides a device's context sees that device's writes in its reads.
describe('queries read the data context\'s database, like commands', () => {
  it('a record created in a fresh database is what the hooks show', async () => {
    const { data } = makeDevice({ userId: 'u1' });
    const p = await createParticipant(data, { first_name: 'Ana', last_name: 'Ruiz', custody_status: 'released' });
    const c = await createCohort(data, { program_id: 'p1', site_id: 's1', cohort_code: 'CTX-1', status: 'planned' });

    const participant = renderHook(() => useParticipant(p.id), withData(data));
    const counts = renderHook(() => useParticipantCounts(), withData(data));
    const cohort = renderHook(() => useCohort(c.id), withData(data));
    await waitFor(() => expect(participant.result.current?.first_name).toBe('Ana'));
    await waitFor(() => expect(counts.result.current).toEqual({ total: 1, inCustody: 0, released: 1 }));
    await waitFor(() => expect(cohort.result.current?.cohort_code).toBe('CTX-1'));
    // The app's default database was never touched.
    expect(await appDb.participants.get(p.id)).toBeUndefined();
  });
});
