/**
 * Enrollment reads. Lists are joined with their participants and cohorts here, in one bulk read
 * per list — never one query per row or card.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import { useRememberedLiveQuery } from './remembered';
import { resolvedId } from './by-id';
import type { Cohort, Enrollment, Participant } from '../../../shared/entities';

export interface RecentEnrollment {
  enrollment: Enrollment;
  /** Null when the participant or cohort is not (yet) in the mirror: the row shows the fallback. */
  participant: Participant | null;
  cohort: Cohort | null;
}

/**
 * Dashboard 'Recent Enrollments' (spec 2.4): the newest `n` by created_date, read from the end of
 * the created_date index (records made offline get a local created_date when created, so they
 * show at once).
 */
export function useRecentEnrollments(n: number): RecentEnrollment[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const rows = await db.enrollments.orderBy('created_date').reverse().limit(n).toArray();
    const [participants, cohorts] = await Promise.all([
      db.participants.bulkGet(rows.map((e) => e.participant_id)),
      db.cohorts.bulkGet(rows.map((e) => e.cohort_id)),
    ]);
    return rows.map((enrollment, i) => ({ enrollment, participant: participants[i] ?? null, cohort: cohorts[i] ?? null }));
  }, [db, n]);
}

export interface EnrollmentCounts {
  active: number;
  graduated: number;
}

/** Dashboard 'Active Enrollments' card: two index counts. */
export function useEnrollmentCounts(): EnrollmentCounts | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const [active, graduated] = await Promise.all([
      db.enrollments.where('enrollment_status').equals('active').count(),
      db.enrollments.where('enrollment_status').equals('graduated').count(),
    ]);
    return { active, graduated };
  }, [db]);
}

export interface ParticipantEnrollment {
  enrollment: Enrollment;
  /** Null when the cohort is not (yet) in the mirror. */
  cohort: Cohort | null;
}

/**
 * The enrollments of one participant (any status) with their cohorts, newest intake first — the
 * 'Cohort Enrollments' panel of spec 2.7. Accepts a temporary id or its alias.
 */
export function useEnrollmentsOfParticipant(participantId: string): ParticipantEnrollment[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const id = await resolvedId(ctx, participantId);
    const rows = await ctx.db.enrollments.where('participant_id').equals(id).toArray();
    rows.sort((a, b) => (b.intake_date ?? '').localeCompare(a.intake_date ?? '') || (b.created_date ?? '').localeCompare(a.created_date ?? ''));
    const cohorts = await ctx.db.cohorts.bulkGet(rows.map((e) => e.cohort_id));
    return rows.map((enrollment, i) => ({ enrollment, cohort: cohorts[i] ?? null }));
  }, [ctx, participantId]);
}

/**
 * participant id → the cohort codes of their ACTIVE enrollments, sorted (the 'Active Cohorts' box
 * of every participant card, spec 2.5). One indexed read of the active enrollments and one read of
 * the cohorts for the whole list, joined in memory: 10,000 cards cost two queries, not 10,000.
 */
export function useActiveCohortCodesByParticipant(): Map<string, string[]> | undefined {
  const { db } = useDataContext();
  return useRememberedLiveQuery('active-cohort-codes', [db.enrollments, db.cohorts], async () => {
    const [active, cohorts] = await Promise.all([db.enrollments.where('enrollment_status').equals('active').toArray(), db.cohorts.toArray()]);
    const codeOf = new Map(cohorts.map((c) => [c.id, c.cohort_code]));
    const byParticipant = new Map<string, string[]>();
    for (const e of active) {
      const code = codeOf.get(e.cohort_id);
      if (!code) continue;
      const list = byParticipant.get(e.participant_id);
      if (list) list.push(code);
      else byParticipant.set(e.participant_id, [code]);
    }
    for (const list of byParticipant.values()) list.sort();
    return byParticipant;
  });
}
