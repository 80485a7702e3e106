/**
 * Issue #23.5: the session form and the "Generate weekly sessions" panel on CohortDetail, pure:
 * the datetime-local value ↔ the stored ISO time, the checks (in the spec's 'Please enter …'
 * words, spec.md 5), the defaults a weekly plan starts from, and how a session's attendance reads.
 */
import type { Cohort, Session } from '../../shared/entities';
import { percent } from './attendance';
import { todayISO } from './format';
import { MAX_WEEKLY_SESSIONS } from './session-plan';

const pad = (n: number) => String(n).padStart(2, '0');

/** A stored time as a datetime-local input shows it ('2025-01-07T09:00', local time); '' when unset. */
export function toLocalInput(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${todayISO(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the tablet's local time) as the ISO time stored; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const at = new Date(y, mo - 1, d, h, mi);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export interface SessionDraft {
  session_number: string;
  topic: string;
  /** datetime-local value */
  scheduled_at: string;
}

export type SessionDraftErrors = Partial<Record<keyof SessionDraft, string>>;

export function emptySessionDraft(nextNumber: number): SessionDraft {
  return { session_number: String(nextNumber), topic: '', scheduled_at: '' };
}

export function sessionDraftOf(s: Pick<Session, 'session_number' | 'topic' | 'scheduled_at'>): SessionDraft {
  return { session_number: s.session_number == null ? '' : String(s.session_number), topic: s.topic ?? '', scheduled_at: toLocalInput(s.scheduled_at) };
}

/**
 * The draft's problems, none when it may be saved. `others` are the cohort's other sessions: two
 * sessions with one number would make 'Session 3' ambiguous on the roster and in the export.
 */
export function checkSessionDraft(draft: SessionDraft, others: ReadonlyArray<Pick<Session, 'session_number'>>): SessionDraftErrors {
  const errors: SessionDraftErrors = {};
  const n = Number(draft.session_number.trim());
  if (draft.session_number.trim() === '' || !Number.isInteger(n) || n < 1) errors.session_number = 'Please enter a session number (1 or more)';
  else if (others.some((s) => s.session_number === n)) errors.session_number = `Session ${n} already exists. Please enter another number`;
  if (!fromLocalInput(draft.scheduled_at)) errors.scheduled_at = 'Please enter a date and time';
  return errors;
}

/** The fields to store (after `checkSessionDraft` found nothing). */
export function sessionFieldsOf(draft: SessionDraft): Pick<Session, 'session_number' | 'topic' | 'scheduled_at'> {
  return { session_number: Number(draft.session_number.trim()), topic: draft.topic.trim() || null, scheduled_at: fromLocalInput(draft.scheduled_at) };
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export interface WeeklyDraft {
  /** YYYY-MM-DD */
  startDate: string;
  /** '0'–'6', as Date#getDay */
  weekday: string;
  /** HH:mm */
  time: string;
  count: string;
  topic: string;
}

const dateOf = (ymd: string) => {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/**
 * Where a weekly plan starts: from the cohort's start date, or today when that has passed (the
 * weeks gone by need no new sessions); on the start day's weekday at 9:00; as many weeks as fit
 * before the end date (12 without one, at most MAX_WEEKLY_SESSIONS).
 */
export function weeklyDefaults(cohort: Pick<Cohort, 'start_date' | 'end_date'>, now: Date): WeeklyDraft {
  const today = todayISO(now);
  const start = cohort.start_date && cohort.start_date > today ? cohort.start_date : today;
  const weeks = cohort.end_date && cohort.end_date >= start ? Math.floor((dateOf(cohort.end_date).getTime() - dateOf(start).getTime()) / (7 * 86_400_000)) + 1 : 12;
  return { startDate: start, weekday: String(dateOf(start).getDay()), time: '09:00', count: String(Math.min(MAX_WEEKLY_SESSIONS, Math.max(1, weeks))), topic: '' };
}

export type WeeklyDraftErrors = Partial<Record<keyof WeeklyDraft, string>>;

export function checkWeeklyDraft(draft: WeeklyDraft): WeeklyDraftErrors {
  const errors: WeeklyDraftErrors = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.startDate)) errors.startDate = 'Please enter a start date';
  if (!/^\d{2}:\d{2}$/.test(draft.time)) errors.time = 'Please enter a time';
  const n = Number(draft.count);
  if (draft.count.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_WEEKLY_SESSIONS) errors.count = `Please enter a number of sessions from 1 to ${MAX_WEEKLY_SESSIONS}`;
  return errors;
}

/** How much attendance a session has: 'Not taken', or '18 of 22 marked, 82% attended' (attended of marked). */
export function takenPhrase(t: { marked: number; expected: number; attended: number }): string {
  if (t.marked === 0) return 'Not taken';
  return `${t.marked} of ${Math.max(t.expected, t.marked)} marked, ${percent(t.attended, t.marked)}% attended`;
}
