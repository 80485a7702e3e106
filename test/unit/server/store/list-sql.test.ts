import { describe, expect, it } from 'vitest';
import { limitOf, orderBy, projection, skipOf } from '../../../../server/store/list-sql';
import { Params } from '../../../../server/store/sql-parts';

describe('orderBy', () => {
  it('defaults to newest first and breaks ties by id on the indexed columns', () => {
    expect(orderBy(undefined)).toBe('created_date DESC, id DESC');
    expect(orderBy('')).toBe('created_date DESC, id DESC');
    expect(orderBy('updated_date')).toBe('updated_date ASC, id ASC');
    expect(orderBy('+updated_date')).toBe('updated_date ASC, id ASC');
    // A "+" decoded as a space by a form decoder still sorts ascending.
    expect(orderBy(' updated_date')).toBe('updated_date ASC, id ASC');
  });

  it('orders a JSON field by type, then numerically or byte-wise, then id', () => {
    const sql = orderBy('-age');
    expect(sql).toContain(`(data->'age')::numeric END DESC`);
    expect(sql).toContain(`COLLATE "C" DESC`);
    expect(sql.endsWith('id DESC')).toBe(true);
  });
});

describe('limit and skip', () => {
  it('default to 5000 and 0, clamp limits above 5001 (a page and one more row)', () => {
    expect(limitOf(undefined)).toBe(5000);
    expect(limitOf(0)).toBe(5000);
    expect(limitOf(50)).toBe(50);
    expect(limitOf(5001)).toBe(5001);
    expect(limitOf(10_000)).toBe(5001);
    expect(skipOf(undefined)).toBe(0);
    expect(skipOf(20)).toBe(20);
  });

  it.each([-1, 1.5, Number.NaN, '10'])('reject %j', (v) => {
    expect(() => limitOf(v)).toThrow(/limit must be a non-negative integer/);
    expect(() => skipOf(v)).toThrow(/skip must be a non-negative integer/);
  });
});

describe('projection', () => {
  it('returns whole records without fields and passes field names as a parameter', () => {
    const p = new Params();
    expect(projection(undefined, p)).toBe('data');
    expect(projection(['id'], p)).toBe(`jsonb_build_object('id', id)`);
    expect(projection(['name', 'address.city'], p)).toContain('key = ANY($1::text[])');
    expect(p.values).toEqual([['name', 'address']]);
  });
});
