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
 * - or does not compile as a JavaScript regular expression,
 * - or costs more than MAX_REGEX_COST (issue #25.4), alone or with the other patterns of one query.
 * Returns the problem in words, or null when the pattern may run.
 *
 * The cost: every repeated atom counts its width (1 for a character, a class or an escape; the
 * atoms inside for a group) times its count (`{n,m}` counts m, `{n,}` n, and `?`, `*` and `+`
 * count 1, as PostgreSQL compiles them to loops); text that is not repeated costs nothing.
 * PostgreSQL copies a counted atom m times into the automaton it runs on every row, and a row's
 * work grows with those copies: over 20,000 participants on PGlite (measured on the last name,
 * ~40 characters, case-insensitive), `.{100}` twenty times (cost 2000) took 26 s, `.{100}` three
 * times (300) 1.3 s, `[0-9a-f]{100}` (100) 0.54 s, `.{0,2}` twenty times then `x` (40) 0.6 s on
 * an idle machine and 1.0 s on a busy one; a row's work grows about linearly with the cost, so 30
 * keeps the costliest allowed pattern well inside a second while ordinary searches (names, a
 * phone number `\(\d{3}\) \d{3}-\d{4}`: cost 10, a date: 8) take 20–60 ms.
 */
export const MAX_REGEX_LENGTH = 200;
export const MAX_REPEAT = 100;
export const MAX_QUANTIFIERS = 20;
export const MAX_REGEX_COST = 30;

const tooComplex = (cost: number) =>
  `This search is too complex: its $regex repeats characters ${cost} times in all (at most ${MAX_REGEX_COST}). Use a shorter or simpler pattern.`;

export function regexProblem(pattern: string): string | null {
  const { problem, cost } = analyse(pattern);
  return problem ?? (cost > MAX_REGEX_COST ? tooComplex(cost) : null);
}

/**
 * The problem of a whole filter's patterns: each one's, or their cost together over the budget
 * (every `$regex` of a query runs on each row: ten patterns of 40 cost as much as one of 400).
 */
export function filterRegexProblem(q: unknown): string | null {
  let total = 0;
  const walk = (v: unknown): string | null => {
    if (Array.isArray(v)) {
      for (const x of v) {
        const p = walk(x);
        if (p) return p;
      }
      return null;
    }
    if (typeof v !== 'object' || v === null) return null;
    for (const [key, x] of Object.entries(v)) {
      if (key === '$regex' && typeof x === 'string') {
        const { problem, cost } = analyse(x);
        if (problem) return problem;
        total += cost;
        continue;
      }
      const p = walk(x);
      if (p) return p;
    }
    return null;
  };
  return walk(q) ?? (total > MAX_REGEX_COST ? tooComplex(total) : null);
}

/** The pattern's structural problem, if any, and its cost (see above). */
export function analyse(pattern: string): { problem: string | null; cost: number } {
  const fail = (problem: string) => ({ problem, cost: 0 });
  if (pattern.length > MAX_REGEX_LENGTH) return fail(`$regex is longer than ${MAX_REGEX_LENGTH} characters`);
  try {
    new RegExp(pattern);
  } catch {
    return fail('$regex is not a valid regular expression');
  }
  // One frame per open group: does anything inside it repeat, how many atoms wide is it, and
  // what do its repetitions cost.
  const groups: Array<{ repeats: boolean; width: number; cost: number }> = [{ repeats: false, width: 0, cost: 0 }];
  let quantifiers = 0;
  let i = 0;
  /** What the next quantifier applies to: a plain atom, or a group that contains repetition. */
  let lastAtom: 'none' | 'atom' | 'repeating-group' = 'none';
  /** The width of what the next quantifier applies to. */
  let lastWidth = 0;
  const top = () => groups[groups.length - 1];
  const atom = (width: number, kind: 'atom' | 'repeating-group' = 'atom') => {
    top().width += width;
    lastWidth = width;
    lastAtom = kind;
  };

  const markRepeat = () => {
    for (const g of groups) g.repeats = true;
  };
  /** `count` is what the quantifier costs per atom of width (see above); `max` its upper bound. */
  const quantify = (max: number, count: number): string | null => {
    if (++quantifiers > MAX_QUANTIFIERS) return `$regex has more than ${MAX_QUANTIFIERS} repetitions`;
    if (lastAtom === 'repeating-group' && max > 1) return '$regex repeats a group that itself repeats (nested quantifiers)';
    markRepeat();
    top().cost += lastWidth * count;
    lastAtom = 'none';
    return null;
  };

  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next)) return fail('$regex may not use back-references');
      i += 2;
      atom(1);
      continue;
    }
    if (ch === '[') {
      // Skip the class: a leading ] (or ^]) is literal; \] is escaped.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j + 1;
      atom(1);
      continue;
    }
    if (ch === '(') {
      groups.push({ repeats: false, width: 0, cost: 0 });
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
      const group = groups.length > 1 ? groups.pop()! : { repeats: false, width: 0, cost: 0 };
      i++;
      // What repeats inside the group costs once; repeating the group itself counts its width.
      top().cost += group.cost;
      atom(group.width, group.repeats ? 'repeating-group' : 'atom');
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?') {
      const problem = quantify(ch === '?' ? 1 : Infinity, 1);
      if (problem) return fail(problem);
      i++;
      if (pattern[i] === '?' || pattern[i] === '+') i++; // lazy or possessive suffix
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m && (m[1] !== '' || (m[3] ?? '') !== '')) {
        const min = m[1] === '' ? 0 : Number(m[1]);
        const max = m[2] ? (m[3] === '' ? Infinity : Number(m[3])) : min;
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) return fail(`$regex repeats more than ${MAX_REPEAT} times`);
        const problem = quantify(max, max === Infinity ? Math.max(min, 1) : Math.max(max, 1));
        if (problem) return fail(problem);
        i += m[0].length;
        if (pattern[i] === '?') i++;
        continue;
      }
    }
    i++;
    atom(1);
  }
  return { problem: null, cost: groups.reduce((sum, g) => sum + g.cost, 0) };
}
