import type { Cohort, Session } from '../../shared/entities';

/** 'Session 3' (spec 2.10's words), or 'Session' when it has no number yet. */
export function sessionLabel(session: Pick<Session, 'session_number'>): string {
  return session.session_number == null ? 'Session' : `Session ${session.session_number}`;
}

/** 'FL-SQ-2025Q1 · Session 3': a session named within its cohort (issue #23's pages and panels). */
export function sessionTitle(cohort: Pick<Cohort, 'cohort_code'> | null | undefined, session: Pick<Session, 'session_number'>): string {
  return cohort ? `${cohort.cohort_code || 'Untitled Cohort'} · ${sessionLabel(session)}` : sessionLabel(session);
}
