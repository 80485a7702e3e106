/**
 * The keystrokes of the search measurement, planned in advance with the app's own search rule
 * (src/domain/participant-search) over the participants on the server, so the page can be watched
 * for the exact count badge each keystroke must produce. A keystroke that leaves the count
 * unchanged cannot be seen in the badge; it is still typed, but not timed.
 */
import { participantCountLabel } from '../../../src/domain/participant-search';

export interface Keystroke {
  key: string;
  query: string;
  /** The badge text once the results reflect this keystroke. */
  expected: string;
  timed: boolean;
}

/** Names common in the demo catalog and one e-mail fragment: typed, then erased, letter by letter. */
export const SEARCH_WORDS = ['marcus', 'garcia', 'net', 'rosa'];

export function planKeystrokes(keys: readonly string[], words: readonly string[], wanted: number): Keystroke[] {
  const count = (q: string) => {
    const needle = q.trim().toLowerCase();
    return needle ? keys.filter((k) => k.includes(needle)).length : keys.length;
  };
  const steps: Keystroke[] = [];
  let query = '';
  let timed = 0;
  const push = (key: string, next: string) => {
    const changed = count(next) !== count(query);
    query = next;
    if (changed) timed += 1;
    steps.push({ key, query, expected: participantCountLabel(count(query)), timed: changed });
  };
  for (const word of words) {
    for (const ch of word) push(ch, query + ch);
    while (query) push('Backspace', query.slice(0, -1));
    if (timed >= wanted) break;
  }
  if (timed < wanted) throw new Error(`search plan: only ${timed} keystrokes change the count; add words`);
  return steps;
}
