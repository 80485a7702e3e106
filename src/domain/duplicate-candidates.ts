/**
 * Issue #23.7: possible duplicates of a participant being added. Two rules:
 * - the same CDCR number, compared as a key (shared/participant-keys.ts: case, spaces and dashes
 *   do not count), whatever the names;
 * - the same date of birth and a similar name: first and last names each similar (or swapped, as
 *   forms often are), where two names are similar when one of their words is — equal once accents,
 *   case and hyphens are gone, the same Soundex code ("Jon"/"John", "Smith"/"Smyth"), or at most one
 *   edit apart (two for words of 7 letters or more; a swap of two letters is one edit).
 * A different date of birth with a similar name is not a match (namesakes are common; the date is
 * what tells them apart), and neither is a similar name without a date.
 *
 * Built for every keystroke on 10,000 participants: `indexForDuplicates` keys the candidates by CDCR
 * key and date once per data change, so a look-up reads two map entries and compares names only
 * with the few people born that day.
 */
import { cdcrKey } from '../../shared/participant-keys';
import type { Participant } from '../../shared/entities';

export type DuplicateReason = 'Same CDCR number' | 'Same date of birth, similar name';

export type DuplicateCandidate = Pick<Participant, 'id' | 'first_name' | 'last_name'> &
  Partial<Pick<Participant, 'middle_name' | 'date_of_birth' | 'cdcr_number'>>;

/** What the coach has typed so far. */
export interface DuplicateDraft {
  first_name?: string | null;
  last_name?: string | null;
  date_of_birth?: string | null;
  cdcr_number?: string | null;
}

export interface DuplicateMatch<T extends DuplicateCandidate = DuplicateCandidate> {
  participant: T;
  reason: DuplicateReason;
}

export interface DuplicateIndex<T extends DuplicateCandidate = DuplicateCandidate> {
  byCdcr: ReadonlyMap<string, readonly T[]>;
  byDob: ReadonlyMap<string, readonly T[]>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD of a date or date-time, or null. */
export function dobKey(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Indexing 10,000 rows runs once per data change: a slice and one test, not a trim and a match each.
  const day = value.length === 10 ? value : value.trim().slice(0, 10);
  return DAY.test(day) ? day : null;
}

/** The words of a name: accents off ("María" → "maria"), lower case, hyphens and apostrophes split. */
export function nameWords(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const SOUNDEX_CODES: Record<string, string> = {
  b: '1', f: '1', p: '1', v: '1',
  c: '2', g: '2', j: '2', k: '2', q: '2', s: '2', x: '2', z: '2',
  d: '3', t: '3',
  l: '4',
  m: '5', n: '5',
  r: '6',
};

/** American Soundex of a lower-case word ("robert" → "r163"); h and w do not separate equal codes. */
export function soundex(word: string): string {
  const letters = word.replace(/[^a-z]/g, '');
  if (!letters) return '';
  let out = letters[0];
  let last = SOUNDEX_CODES[letters[0]] ?? '';
  for (let i = 1; i < letters.length && out.length < 4; i++) {
    const ch = letters[i];
    const code = SOUNDEX_CODES[ch] ?? '';
    if (code && code !== last) out += code;
    if (ch !== 'h' && ch !== 'w') last = code;
  }
  return out.padEnd(4, '0');
}

/** Optimal string alignment distance (Damerau-Levenshtein where a swap of neighbours is one edit), stopping above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length][b.length];
}

function similarWord(a: string, b: string): boolean {
  if (a === b) return true;
  // An initial ("J") stands for any word it begins.
  if (a.length === 1 || b.length === 1) return a[0] === b[0];
  if (soundex(a) === soundex(b)) return true;
  const longest = Math.max(a.length, b.length);
  return longest >= 3 && editDistance(a, b, longest >= 7 ? 2 : 1) <= (longest >= 7 ? 2 : 1);
}

/** Two names are similar when one word of each is, or when they are one word run together ("De la Cruz", "Delacruz"). */
export function similarNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (a.some((x) => b.some((y) => similarWord(x, y)))) return true;
  return (a.length > 1 || b.length > 1) && similarWord(a.join(''), b.join(''));
}

function similarPerson(draft: DuplicateDraft, other: DuplicateCandidate): boolean {
  const first = nameWords(draft.first_name);
  const last = nameWords(draft.last_name);
  if (first.length === 0 || last.length === 0) return false;
  const otherFirst = [...nameWords(other.first_name), ...nameWords(other.middle_name)];
  const otherLast = nameWords(other.last_name);
  return (similarNames(first, otherFirst) && similarNames(last, otherLast)) || (similarNames(first, otherLast) && similarNames(last, otherFirst));
}

function push<T>(map: Map<string, T[]>, key: string | null, row: T): void {
  if (key === null) return;
  const list = map.get(key);
  if (list) list.push(row);
  else map.set(key, [row]);
}

/** The candidates keyed by CDCR key and by date of birth: once per data change. */
export function indexForDuplicates<T extends DuplicateCandidate>(rows: readonly T[]): DuplicateIndex<T> {
  const byCdcr = new Map<string, T[]>();
  const byDob = new Map<string, T[]>();
  for (const row of rows) {
    push(byCdcr, cdcrKey(row.cdcr_number), row);
    push(byDob, dobKey(row.date_of_birth), row);
  }
  return { byCdcr, byDob };
}

/** The possible duplicates of the draft, same CDCR number first; each person once. */
export function findDuplicates<T extends DuplicateCandidate>(index: DuplicateIndex<T>, draft: DuplicateDraft): DuplicateMatch<T>[] {
  const out: DuplicateMatch<T>[] = [];
  const seen = new Set<string>();
  const cdcr = cdcrKey(draft.cdcr_number);
  for (const participant of cdcr ? (index.byCdcr.get(cdcr) ?? []) : []) {
    if (seen.has(participant.id)) continue;
    seen.add(participant.id);
    out.push({ participant, reason: 'Same CDCR number' });
  }
  const dob = dobKey(draft.date_of_birth);
  for (const participant of dob ? (index.byDob.get(dob) ?? []) : []) {
    if (seen.has(participant.id) || !similarPerson(draft, participant)) continue;
    seen.add(participant.id);
    out.push({ participant, reason: 'Same date of birth, similar name' });
  }
  return out;
}

/** findDuplicates over a plain list (the server's few answers). */
export function duplicateCandidates<T extends DuplicateCandidate>(draft: DuplicateDraft, rows: readonly T[]): DuplicateMatch<T>[] {
  return findDuplicates(indexForDuplicates(rows), draft);
}
