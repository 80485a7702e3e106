import type { Session } from '../../shared/entities';

/**
 * The 'Upcoming Sessions' panel of CohortDetail (spec 2.10 says "the first 3 sessions").
 * We read "first" as the next ones to come: sessions scheduled from now on, soonest first. When
 * none is ahead (a finished cohort, or sessions without dates), we fall back to the first 3 by
 * session number, so the panel still shows the cohort's plan rather than going empty.
 */
export const UPCOMING_SESSION_COUNT = 3;

export interface UpcomingSessions {
  sessions: Session[];
  /** 'upcoming' when these are ahead of now; 'by-number' when the fall-back was used. */
  basis: 'upcoming' | 'by-number';
}

function time(value: string | null | undefined): number {
  if (!value) return Number.NaN;
  return new Date(value).getTime();
}

export function pickUpcomingSessions(sessions: readonly Session[], now: Date, count = UPCOMING_SESSION_COUNT): UpcomingSessions {
  const nowMs = now.getTime();
  const ahead = sessions
    .filter((s) => time(s.scheduled_at) >= nowMs)
    .sort((a, b) => time(a.scheduled_at) - time(b.scheduled_at) || (a.session_number ?? 0) - (b.session_number ?? 0));
  if (ahead.length > 0) return { sessions: ahead.slice(0, count), basis: 'upcoming' };
  const byNumber = [...sessions].sort(
    (a, b) => (a.session_number ?? Number.MAX_SAFE_INTEGER) - (b.session_number ?? Number.MAX_SAFE_INTEGER),
  );
  return { sessions: byNumber.slice(0, count), basis: 'by-number' };
}
