/**
 * Cohort reads for the cohort, program and site screens. Every hook returns `undefined` while
 * loading (the screen shows its skeleton) and reads through indexes of db.ts, in the database of
 * the data context provided above it (the one its commands write).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import type { Cohort, Enrollment, Participant } from '../../../shared/entities';
import { countOccupancy } from '../../domain/occupancy';
import { codeKey } from '../../domain/cohort-code';
import { getByIdOrAlias, resolvedId } from './by-id';

/** Newest start first; cohorts without a start date go last (spec 2.8). */
export function byStartDateDesc(a: Cohort, b: Cohort): number {
  return (b.start_date ?? '').localeCompare(a.start_date ?? '') || (a.cohort_code ?? '').localeCompare(b.cohort_code ?? '');
}

export function useCohorts(): Cohort[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => (await db.cohorts.toArray()).sort(byStartDateDesc), [db]);
}

/** `null` when the id (or its alias) matches no cohort. */
export function useCohort(id: string): Cohort | null | undefined {
  const ctx = useDataContext();
  return useLiveQuery(() => getByIdOrAlias(ctx, ctx.db.cohorts, id), [ctx, id]);
}

export function useCohortsOfProgram(programId: string): Cohort[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(
    async () => (await ctx.db.cohorts.where('program_id').equals(await resolvedId(ctx, programId)).toArray()).sort(byStartDateDesc),
    [ctx, programId],
  );
}

export function useCohortsOfSite(siteId: string): Cohort[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(
    async () => (await ctx.db.cohorts.where('site_id').equals(await resolvedId(ctx, siteId)).toArray()).sort(byStartDateDesc),
    [ctx, siteId],
  );
}

/**
 * Enrollments per cohort, of ANY status (the Cohorts list reading, spec 4). Reads only the
 * cohort_id index keys, not the rows: one key scan for the whole list instead of one count per card.
 */
export function useEnrollmentCountsByCohort(): Map<string, number> | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const keys = (await db.enrollments.orderBy('cohort_id').keys()) as string[];
    return countOccupancy(keys.map((cohort_id) => ({ cohort_id, enrollment_status: null }))).all;
  }, [db]);
}

export interface ActiveSummary {
  /** Active enrollments per cohort id (the detail-page reading, spec 4). */
  byCohort: Map<string, number>;
  /** Distinct participants holding an active enrollment in any of the cohorts. */
  participantCount: number;
}

/** Active enrollments of a set of cohorts, in one indexed query ([cohort_id+enrollment_status]). */
export function useActiveEnrollmentSummary(cohortIds: readonly string[] | undefined): ActiveSummary | undefined {
  const { db } = useDataContext();
  const key = cohortIds?.join('\n');
  return useLiveQuery(async () => {
    if (!cohortIds) return undefined;
    const rows = cohortIds.length
      ? await db.enrollments.where('[cohort_id+enrollment_status]').anyOf(cohortIds.map((id) => [id, 'active'])).toArray()
      : [];
    return {
      byCohort: countOccupancy(rows).active,
      participantCount: new Set(rows.map((r) => r.participant_id)).size,
    };
  }, [db, key]);
}

export interface RosterRow {
  enrollment: Enrollment;
  /** Null when the participant is not (yet) in the mirror. */
  participant: Participant | null;
}

export interface CohortRoster {
  active: RosterRow[];
  graduated: number;
}

function rosterName(row: RosterRow): string {
  return `${row.participant?.last_name ?? ''} ${row.participant?.first_name ?? ''}`.toLowerCase();
}

/** The active enrollments of a cohort with their participants (sorted by last name) and the graduated count. */
export function useCohortRoster(cohortId: string): CohortRoster | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const enrollments = await ctx.db.enrollments.where('cohort_id').equals(await resolvedId(ctx, cohortId)).toArray();
    const active = enrollments.filter((e) => e.enrollment_status === 'active');
    const participants = await ctx.db.participants.bulkGet(active.map((e) => e.participant_id));
    const rows = active.map((enrollment, i) => ({ enrollment, participant: participants[i] ?? null }));
    rows.sort((a, b) => rosterName(a).localeCompare(rosterName(b)));
    return { active: rows, graduated: enrollments.filter((e) => e.enrollment_status === 'graduated').length };
  }, [ctx, cohortId]);
}

/**
 * The codes of all cohorts on this device as codeKey()s, mapped to the cohort holding each (issue
 * #12.3: Generate picks a free code, the forms refuse a taken one).
 */
export function useCohortCodes(): Map<string, string> | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const codes = new Map<string, string>();
    await db.cohorts.each((c) => {
      const key = codeKey(c.cohort_code);
      if (key) codes.set(key, c.id);
    });
    return codes;
  }, [db]);
}
