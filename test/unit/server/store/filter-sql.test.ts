import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../../server/store/filter-sql';
import { Params, parseFieldPath } from '../../../../server/store/sql-parts';
import { toHttpError } from '../../../../server/errors';

const compile = (q: unknown) => {
  const p = new Params();
  return { sql: compileFilter(q, p), params: p.values };
};

describe('compileFilter', () => {
  it('passes every value as a parameter, never inside the SQL text', () => {
    const evil = "x'); DROP TABLE records; --";
    const { sql, params } = compile({
      name: evil, n: { $gt: evil }, s: { $regex: evil.replace(/[()]/g, '') }, t: { $in: [evil] }, u: { $all: [evil] },
    });
    expect(sql).not.toContain('DROP');
    expect(JSON.stringify(params)).toContain('DROP TABLE');
  });

  it('uses the indexed columns for platform fields and containment for equality', () => {
    expect(compile({ updated_date: { $gte: '2024-01-01T00:00:00.000Z' } }).sql).toBe('updated_date >= $1');
    const eq = compile({ participant_id: 'p1' });
    expect(eq.sql).toBe('data @> ANY($1::jsonb[])');
    expect(eq.params).toEqual([['{"participant_id":"p1"}', '{"participant_id":["p1"]}']]);
  });

  it('answers short $in lists from the GIN index and long ones with one hashed scan', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
    expect(compile({ participant_id: { $in: values(16) } }).sql).toBe('data @> ANY($1::jsonb[])');
    const long = compile({ participant_id: { $in: values(17) } });
    expect(long.sql).not.toContain('@>');
    expect(long.sql).toContain(`COALESCE(data->'participant_id' = ANY($1::jsonb[]), FALSE)`);
    expect(long.params).toEqual([values(17).map((v) => JSON.stringify(v))]);
  });

  it('an empty or absent query matches everything', () => {
    expect(compile(undefined).sql).toBe('TRUE');
    expect(compile({}).sql).toBe('TRUE');
  });

  it('names the problem in its 400s', () => {
    const fail = (q: unknown) => {
      try {
        compile(q);
      } catch (e) {
        return { status: (toHttpError(e) as { status: number }).status, message: (e as Error).message };
      }
      return null;
    };
    expect(fail({ $where: '1' })).toEqual({ status: 400, message: 'Unknown operator $where' });
    expect(fail({ n: { $near: 1 } })).toEqual({ status: 400, message: 'Unknown operator $near' });
    expect(fail({ n: { $in: 'a' } })).toEqual({ status: 400, message: '$in needs an array' });
    expect(fail({ n: { $gt: null } })).toEqual({ status: 400, message: '$gt needs a number or a string' });
    expect(fail('{"a":1}')).toEqual({ status: 400, message: 'The query must be a JSON object' });
    let deep: unknown = { a: 1 };
    for (let i = 0; i < 20; i++) deep = { $and: [deep] };
    expect(fail(deep)?.message).toMatch(/nested more than 12 levels/);
  });
});

describe('parseFieldPath', () => {
  it('accepts snake_case names and dotted paths', () => {
    expect(parseFieldPath('participant_id')).toEqual(['participant_id']);
    expect(parseFieldPath('address.city')).toEqual(['address', 'city']);
  });

  it.each(["a'b", 'a"b', 'a;b', 'a b', '1abc', 'a..b', '.a', 'a.', '', 'a-b', 'é'])('rejects %j', (name) => {
    expect(() => parseFieldPath(name)).toThrow(/Invalid field name/);
  });
});
