/**
 * Bench data: 10,000 participants and 30,000 enrollments (three per participant across 40 cohorts),
 * written straight through the Store in bulk so seeding takes seconds, not the minutes 40,000 HTTP
 * creates would. Deterministic (a fixed LCG), so runs are comparable.
 */
import type { EntityRecord, Store } from '../../../server/store/types';

export const PARTICIPANTS = 10_000;
export const ENROLLMENTS_PER_PARTICIPANT = 3;
const COHORTS = 40;
const BATCH = 1000;

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'June', 'Kai', 'Lena'];
const LAST = ['Diaz', 'Ellis', 'Ford', 'Garcia', 'Hill', 'Ito', 'Jones', 'Khan', 'Lopez', 'Moore', 'Ngo', 'Owens'];
const STATUS = ['active', 'completed', 'on_hold', 'withdrawn'];
const ENROLLMENT_STATUS = ['active', 'waitlist', 'withdrawn', 'graduated'];

async function inBatches(store: Store, app: string, entity: string, rows: Record<string, unknown>[]): Promise<EntityRecord[]> {
  const meta = { by: 'bench@example.org', byId: 'bench' };
  const out: EntityRecord[] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(...(await store.createMany(app, entity, rows.slice(i, i + BATCH), meta)));
  return out;
}

export interface Seeded {
  participants: EntityRecord[];
  enrollments: EntityRecord[];
}

export async function seedBenchData(store: Store, app: string): Promise<Seeded> {
  const rnd = lcg(2026);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const cohorts = await inBatches(store, app, 'Cohort', Array.from({ length: COHORTS }, (_, i) => ({
    cohort_code: `C${String(i + 1).padStart(3, '0')}`, program_id: 'program-1', site_id: 'site-1', status: 'active', capacity: 400,
  })));
  const participants = await inBatches(store, app, 'Participant', Array.from({ length: PARTICIPANTS }, (_, i) => ({
    first_name: pick(FIRST), last_name: pick(LAST), academy_uid: `RA-${100000 + i}`, age: 18 + Math.floor(rnd() * 50),
    phone: `(510) 555-${String(i % 10000).padStart(4, '0')}`, program_status: pick(STATUS), custody_status: 'released',
    consent_signed: rnd() < 0.8, enrollment_date: '2026-01-15', client_ref: `seed-p-${i}`,
  })));
  const enrollments = await inBatches(store, app, 'Enrollment', participants.flatMap((p, i) =>
    Array.from({ length: ENROLLMENTS_PER_PARTICIPANT }, (_, k) => ({
      participant_id: p.id, cohort_id: cohorts[(i + k * 13) % COHORTS].id, enrollment_status: pick(ENROLLMENT_STATUS),
      intake_date: '2026-02-01', client_ref: `seed-e-${i}-${k}`,
    })),
  ));
  return { participants, enrollments };
}
