import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db } from '../../../src/data/db';
import { useParticipants } from '../../../src/data/queries/participants';
import { clearLocalData } from '../../../src/data/session';
import { clearDb, pageData } from '../render-page';
import { withData } from '../../support/with-data';

describe('participant list kept in memory between visits', () => {
  it('a second visit renders the last list at once; a wipe of the local data forgets it', async () => {
    await clearDb();
    await db.participants.bulkPut([
      { id: 'p1', first_name: 'Ana', last_name: 'Ruiz', enrollment_date: '2026-01-02' },
      { id: 'p2', first_name: 'Bo', last_name: 'Lee', enrollment_date: '2026-03-04' },
    ]);
    const first = renderHook(() => useParticipants(), withData(pageData()));
    expect(first.result.current).toBeUndefined(); // cold: the page shows its skeletons
    await waitFor(() => expect(first.result.current?.map((p) => p.id)).toEqual(['p2', 'p1']));
    first.unmount();

    const again = renderHook(() => useParticipants(), withData(pageData()));
    expect(again.result.current?.map((p) => p.id)).toEqual(['p2', 'p1']); // first render, no wait
    await db.participants.put({ id: 'p3', first_name: 'Cy', last_name: 'Diaz', enrollment_date: '2026-05-06' });
    await waitFor(() => expect(again.result.current?.map((p) => p.id)).toEqual(['p3', 'p2', 'p1']));
    again.unmount();

    await clearLocalData(pageData()); // logout on a shared tablet
    const afterWipe = renderHook(() => useParticipants(), withData(pageData()));
    expect(afterWipe.result.current).toBeUndefined();
    await waitFor(() => expect(afterWipe.result.current).toEqual([]));
  });
});
