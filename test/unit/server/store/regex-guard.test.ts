import { describe, expect, it } from 'vitest';
import { analyse, filterRegexProblem, regexProblem } from '../../../../server/store/regex-guard';

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
    // Issue #25.4: 26 s over 20,000 participants on PGlite before the budget.
    ['.{100}'.repeat(20), /^This search is too complex: its \$regex repeats characters 2000 times in all \(at most 30\)/],
    ['[0-9a-f]{31}', /too complex.*31 times/],
    ['(ab|cd|ef){16}', /too complex.*128 times/],
    ['a{2,4}b{0,100}', /too complex.*104 times/],
    ['x{60,}', /too complex.*60 times/],
  ])('refuses %s', (pattern, message) => {
    const problem = regexProblem(pattern);
    expect(problem).toMatch(message);
    expect(problem).toContain('$regex');
  });

  it.each(['^Ana', 'diaz$', '(Ana|Bo) Lee', '\\d{3}-?\\d{4}', '(\\d{3}-)?\\d{4}', '[(]+', '\\(a+\\)+', 'a{2,4}b{0,20}', '(ab){1,5}', '.?'.repeat(20) + 'x', '.{0,2}'.repeat(15) + 'x', '\\(\\d{3}\\) \\d{3}-\\d{4}', '[a-z]{2}\\d+'])(
    'accepts %s',
    (pattern) => {
      expect(regexProblem(pattern)).toBeNull();
    },
  );

  it('costs what the automaton copies: repeated atoms times their count, plain text nothing', () => {
    expect(analyse('Maria Guadalupe Hernandez-Rodriguez').cost).toBe(0);
    expect(analyse('\\d{3}-\\d{4}').cost).toBe(7);
    expect(analyse('^RA-\\d{4}-\\d{4}$').cost).toBe(8);
    expect(analyse('.*a.*b').cost).toBe(2);
    expect(analyse('(ab){1,5}').cost).toBe(10);
    expect(analyse('(\\d{3}-)?\\d{4}').cost).toBe(3 + 2 + 4);
  });

  it('bounds the patterns of one query together, wherever they sit in it', () => {
    const pattern = { $regex: '[a-z]{12}', $options: 'i' };
    expect(filterRegexProblem({ first_name: pattern, last_name: pattern })).toBeNull();
    expect(filterRegexProblem({ $or: [{ first_name: pattern }, { last_name: pattern }, { uid: pattern }] })).toMatch(/too complex.*36 times/);
    expect(filterRegexProblem({ a: { $not: { $regex: '(x)\\1' } } })).toMatch(/back-references/);
    expect(filterRegexProblem({ a: 'plain', b: [1, { c: null }] })).toBeNull();
  });
});
