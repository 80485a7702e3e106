/**
 * Issue #25.4's data and patterns, shared by the test (expensive-queries.test.ts) and the bench
 * (test/bench/server-bench.ts): participants written through the Store in bulk (1000 a batch, so
 * 20,000 take seconds), the pattern that ran 13.6 s / 26.1 s before the budget, and the costliest
 * pattern the budget allows that we found (`.{0,2}` fifteen times, then `x`: cost 30).
 */
import { UID_FIELD } from '../../shared/config';
import type { Store } from '../../server/store/types';

export const HOSTILE = '.{100}'.repeat(20);
export const WORST_ALLOWED = `${'.{0,2}'.repeat(15)}x`;

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'June', 'Kai', 'Lena'];
const LAST = ['Diaz-Ellison', 'Ellis', 'Fordham-Smith', 'Garcia Lopez', 'Hill', 'Ito', 'Jones', 'Khan', 'Lopez', 'Moore-Whitfield', 'Ngo', 'Owens'];

/** `n` participants with names, a UID `RA-<10000+i>` and a phone; deterministic. */
export async function seedParticipants(store: Store, app: string, n: number): Promise<void> {
  const meta = { by: 'seed@example.org', byId: 'seed' };
  for (let start = 0; start < n; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, n - start) }, (_, k) => {
      const i = start + k;
      return {
        first_name: FIRST[(i * 7) % FIRST.length],
        last_name: LAST[(i * 5 + Math.floor(i / 12)) % LAST.length],
        [UID_FIELD]: `RA-${10000 + i}`,
        phone: `(510) 555-${String(i % 10000).padStart(4, '0')}`,
        program_status: 'active',
        custody_status: 'released',
      };
    });
    await store.createMany(app, 'Participant', rows, meta);
  }
}
