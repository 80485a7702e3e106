import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../../../server/store/regex-guard';

describe('regexProblem: $regex patterns are bounded before SQL (issue #10, hole 1)', () => {
  it.each([
    ['(a{1,255}){1,255}', /repeats more than 100/],
    ['(a{1,50}){1,50}', /nested quantifiers/],
    ['(a+)+', /nested quantifiers/],
    ['(?:a*)*b', /nested quantifiers/],
    ['((ab)*c)+', /nested quantifiers/],
    ['([a-z]+ ?)*', /nested quantifiers/],
    ['a{101}', /repeats more than 100/],
    ['(x)\\1', /back-references/],
    ['a'.repeat(201), /longer than 200/],
    ['(', /not a valid/],
    ['a?'.repeat(21), /more than 20 repetitions/],
  ])('refuses %s', (pattern, message) => {
    const problem = regexProblem(pattern);
    expect(problem).toMatch(message);
    expect(problem).toContain('$regex');
  });

  it.each(['^Ana', 'diaz$', '(Ana|Bo) Lee', '\\d{3}-?\\d{4}', '(\\d{3}-)?\\d{4}', '[(]+', '\\(a+\\)+', 'a{2,4}b{0,100}', '(ab){1,5}', '[a-z]{2}\\d+'])(
    'accepts %s',
    (pattern) => {
      expect(regexProblem(pattern)).toBeNull();
    },
  );
});
