/**
 * Issue #23.7's bench row: keystrokes typed into AddParticipant's Last Name, planned with the
 * app's own duplicate rule (src/domain/duplicate-candidates.ts) over the participants on the
 * server, so the page can be watched for the exact number of possible duplicates each keystroke
 * must show. The first name and date of birth of a real participant are filled in first; their
 * last name is then typed and erased letter by letter. A keystroke that leaves the number
 * unchanged cannot be seen on the page; it is still typed, but not timed.
 */
import { findDuplicates, indexForDuplicates, type DuplicateCandidate } from '../../../src/domain/duplicate-candidates';

export interface DuplicateKeystroke {
  key: string;
  /** How many possible duplicates the panel lists once this keystroke is handled. */
  expected: number;
  timed: boolean;
}

export interface DuplicateTarget {
  first_name: string;
  date_of_birth: string;
  steps: DuplicateKeystroke[];
}

export function planDuplicateKeystrokes(people: readonly DuplicateCandidate[], wanted: number): DuplicateTarget[] {
  const index = indexForDuplicates(people);
  const targets: DuplicateTarget[] = [];
  let timed = 0;
  // Every 37th person: spread over the data set, the same ones at every run.
  for (let i = 0; i < people.length && timed < wanted; i += 37) {
    const who = people[i];
    if (!who.date_of_birth || !who.first_name || !who.last_name) continue;
    const draft = { first_name: who.first_name, date_of_birth: who.date_of_birth, last_name: '' };
    const count = () => findDuplicates(index, draft).length;
    const steps: DuplicateKeystroke[] = [];
    let before = count();
    const push = (key: string, last: string) => {
      draft.last_name = last;
      const expected = count();
      const changed = expected !== before;
      before = expected;
      if (changed) timed += 1;
      steps.push({ key, expected, timed: changed });
    };
    let typed = '';
    for (const ch of who.last_name) push(ch, (typed += ch));
    while (typed) push('Backspace', (typed = typed.slice(0, -1)));
    targets.push({ first_name: who.first_name, date_of_birth: who.date_of_birth, steps });
  }
  if (timed < wanted) throw new Error(`duplicates plan: only ${timed} keystrokes change the matches`);
  return targets;
}
