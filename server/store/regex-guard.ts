/**
 * Bounds a `$regex` pattern before it reaches PostgreSQL. PostgreSQL compiles a regex to an
 * automaton whose size multiplies with nested and counted repetition: `(a{1,255}){1,255}` is
 * 200 characters of input but tens of thousands of states; PGlite spins on it for good (it cannot
 * be interrupted: see sql-client.ts). So a pattern is refused, naming `$regex`, when it
 * - is longer than MAX_REGEX_LENGTH characters,
 * - repeats a group that itself contains a repetition (`(a+)+`, `(a{2}){3}`, `((ab)*c)*`) — an
 *   optional group (`(…)?`, `{0,1}`) is fine,
 * - counts a repetition beyond MAX_REPEAT (`a{1,500}`), or has more than MAX_QUANTIFIERS repetitions,
 * - uses a back-reference (`\1`), which switches PostgreSQL to its slow backtracking matcher,
 * - or does not compile as a JavaScript regular expression.
 * Returns the problem in words, or null when the pattern may run.
 */
export const MAX_REGEX_LENGTH = 200;
export const MAX_REPEAT = 100;
export const MAX_QUANTIFIERS = 20;

export function regexProblem(pattern: string): string | null {
  if (pattern.length > MAX_REGEX_LENGTH) return `$regex is longer than ${MAX_REGEX_LENGTH} characters`;
  try {
    new RegExp(pattern);
  } catch {
    return '$regex is not a valid regular expression';
  }
  // One frame per open group: does anything inside it repeat?
  const groups: boolean[] = [false];
  let quantifiers = 0;
  let i = 0;
  /** What the next quantifier applies to: a plain atom, or a group that contains repetition. */
  let lastAtom: 'none' | 'atom' | 'repeating-group' = 'none';

  const markRepeat = () => {
    for (let g = 0; g < groups.length; g++) groups[g] = true;
  };
  /** `max` is the quantifier's upper bound (Infinity for * and +). */
  const quantify = (max: number): string | null => {
    if (++quantifiers > MAX_QUANTIFIERS) return `$regex has more than ${MAX_QUANTIFIERS} repetitions`;
    if (lastAtom === 'repeating-group' && max > 1) return '$regex repeats a group that itself repeats (nested quantifiers)';
    markRepeat();
    lastAtom = 'none';
    return null;
  };

  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next)) return '$regex may not use back-references';
      i += 2;
      lastAtom = 'atom';
      continue;
    }
    if (ch === '[') {
      // Skip the class: a leading ] (or ^]) is literal; \] is escaped.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j + 1;
      lastAtom = 'atom';
      continue;
    }
    if (ch === '(') {
      groups.push(false);
      i++;
      // (?:…) (?=…) (?!…) (?<=…) (?<!…) (?<name>…): skip the marker.
      if (pattern[i] === '?') {
        i++;
        if (pattern[i] === '<' && pattern[i + 1] !== '=' && pattern[i + 1] !== '!') {
          while (i < pattern.length && pattern[i] !== '>') i++;
        }
        i++;
      }
      lastAtom = 'none';
      continue;
    }
    if (ch === ')') {
      const repeats = groups.pop() ?? false;
      if (groups.length === 0) groups.push(false);
      i++;
      lastAtom = repeats ? 'repeating-group' : 'atom';
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?') {
      const problem = quantify(ch === '?' ? 1 : Infinity);
      if (problem) return problem;
      i++;
      if (pattern[i] === '?' || pattern[i] === '+') i++; // lazy or possessive suffix
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m && (m[1] !== '' || (m[3] ?? '') !== '')) {
        const min = m[1] === '' ? 0 : Number(m[1]);
        const max = m[2] ? (m[3] === '' ? Infinity : Number(m[3])) : min;
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) return `$regex repeats more than ${MAX_REPEAT} times`;
        const problem = quantify(max);
        if (problem) return problem;
        i += m[0].length;
        if (pattern[i] === '?') i++;
        continue;
      }
    }
    i++;
    lastAtom = 'atom';
  }
  return null;
}
