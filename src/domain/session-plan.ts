/**
 * Issue #23.5: "Generate weekly sessions" — a cohort's sessions on one weekday at one time, from
 * its start date, numbered after the sessions it already has. Pure; the command writes them.
 */
export interface WeeklyPlanInput {
  /** YYYY-MM-DD: the first session is on the first `weekday` on or after it. */
  startDate: string;
  /** YYYY-MM-DD, optional: no session after it. */
  endDate?: string | null;
  /** 0 = Sunday … 6 = Saturday (Date#getDay). */
  weekday: number;
  /** HH:mm, local time on the tablet. */
  time: string;
  count: number;
  /** Number of the first generated session (one more than the cohort's highest). */
  firstNumber: number;
  topic?: string | null;
}

export interface PlannedSession {
  session_number: number;
  scheduled_at: string;
  topic: string | null;
}

/** At most this many at once: a year of weekly sessions. */
export const MAX_WEEKLY_SESSIONS = 52;

export function planWeeklySessions(input: WeeklyPlanInput): PlannedSession[] {
  const [y, m, d] = input.startDate.split('-').map(Number);
  const [hh, mm] = input.time.split(':').map(Number);
  if (![y, m, d, hh, mm].every(Number.isFinite) || input.weekday < 0 || input.weekday > 6) return [];
  const count = Math.max(0, Math.min(MAX_WEEKLY_SESSIONS, Math.floor(input.count)));
  const first = new Date(y, m - 1, d, hh, mm);
  first.setDate(first.getDate() + ((input.weekday - first.getDay() + 7) % 7));
  const end = input.endDate ? new Date(`${input.endDate}T23:59:59`) : null;
  const out: PlannedSession[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(first.getFullYear(), first.getMonth(), first.getDate() + 7 * i, hh, mm);
    if (end && at > end) break;
    out.push({ session_number: input.firstNumber + i, scheduled_at: at.toISOString(), topic: input.topic?.trim() || null });
  }
  return out;
}

/** The number after the highest a cohort's sessions have (1 for none). */
export function nextSessionNumber(sessions: ReadonlyArray<{ session_number?: number | null }>): number {
  return sessions.reduce((max, s) => Math.max(max, s.session_number ?? 0), 0) + 1;
}
