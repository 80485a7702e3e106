import type { Participant, ProgramStatus } from '../../shared/entities';

/**
 * Participant list search and filter (spec 2.5): case-insensitive on first name + last name +
 * email, and an exact program_status filter. Built for 10,000 participants: the lower-cased key
 * of each participant is computed once per data change (`indexParticipants`), so one keystroke is
 * a single `includes` per row — about 1 ms for 10,000 rows on this machine (see the unit test).
 */
export type StatusFilter = 'all' | ProgramStatus;

export interface SearchEntry {
  participant: Participant;
  /** "first last\nemail" lower-cased; the newline keeps a query from matching across name and email. */
  key: string;
}

export function searchKey(p: Pick<Participant, 'first_name' | 'last_name' | 'email'>): string {
  const name = `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim();
  return `${name}\n${p.email ?? ''}`.toLowerCase();
}

export function indexParticipants(participants: readonly Participant[]): SearchEntry[] {
  return participants.map((participant) => ({ participant, key: searchKey(participant) }));
}

/** The participants whose key contains the query (trimmed, lower-cased) and whose status matches. */
export function filterParticipants(entries: readonly SearchEntry[], query: string, status: StatusFilter): Participant[] {
  const q = query.trim().toLowerCase();
  const out: Participant[] = [];
  for (const e of entries) {
    if (status !== 'all' && e.participant.program_status !== status) continue;
    if (q && !e.key.includes(q)) continue;
    out.push(e.participant);
  }
  return out;
}

/** 'N participant' when N is 1, 'N participants' otherwise (spec 2.5 count badge). */
export function participantCountLabel(n: number): string {
  return `${n} ${n === 1 ? 'participant' : 'participants'}`;
}

/**
 * List order of spec 2.5: enrollment_date newest first. Rows without an enrollment_date (imported
 * before the field existed) go last; ties fall back to created_date newest first, then id, so the
 * order is stable between renders.
 */
export function compareByEnrollmentDateDesc(a: Participant, b: Participant): number {
  return (
    desc(a.enrollment_date, b.enrollment_date) || desc(a.created_date, b.created_date) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function desc(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  return a < b ? 1 : -1;
}
