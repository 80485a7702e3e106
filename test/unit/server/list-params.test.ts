import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../server/errors';
import { decodeCursor, encodeCursor } from '../../../server/http/cursor';
import { checkFilter } from '../../../server/http/filter-check';
import { parseListParams } from '../../../server/http/list-params';

const params = (query: Record<string, string>) => parseListParams((name) => query[name]);
const status = (fn: () => unknown) => {
  try {
    fn();
    return 200;
  } catch (err) {
    return err instanceof HttpError ? err.status : 500;
  }
};

describe('list parameters', () => {
  it('reads q, sort, limit, skip and fields as the SDK sends them', () => {
    expect(params({ q: '{"n":{"$gte":5}}', sort: ' name', limit: '10', skip: '20', fields: 'id,first_name' })).toEqual({
      q: { n: { $gte: 5 } },
      sort: 'name',
      limit: 10,
      skip: 20,
      fields: ['id', 'first_name'],
      touched: ['n', 'name'],
    });
    expect(params({ sort: '-created_date' }).sort).toBe('-created_date');
    expect(params({ limit: '99999' }).limit).toBe(5000);
    expect(params({ fields: '' }).fields).toBeUndefined();
  });

  it('refuses malformed input with a 400', () => {
    const cases: Record<string, string>[] = [
      { q: '{' },
      { q: '[1]' },
      { q: '{"a":{"$where":"1"}}' },
      { q: '{"$or":{}}' },
      { q: '{"a; drop":1}' },
      { sort: 'name;drop' },
      { sort: "a' OR 1=1" },
      { limit: '-1' },
      { limit: 'ten' },
      { skip: '1e3' },
      { fields: 'id,a b' },
    ];
    for (const bad of cases) {
      expect(status(() => params(bad)), JSON.stringify(bad)).toBe(400);
    }
  });

  it('accepts every documented operator and reports the fields touched', () => {
    const q = {
      a: 1,
      b: null,
      c: ['x', 'y'],
      d: { $gt: 1, $lte: 5, $ne: 3 },
      e: { $in: [1], $nin: [2] },
      f: { $exists: true },
      g: { $regex: '^A', $options: 'i' },
      h: { $all: ['x'], $size: 1 },
      i: { $elemMatch: { k: 1 } },
      j: { $not: { $eq: 2 } },
      $and: [{ k: 1 }],
      $or: [{ l: 1 }, { m: 2 }],
      $nor: [{ n: 1 }],
    };
    expect(checkFilter(q).sort()).toEqual('abcdefghijklmn'.split('').sort());
  });

  it('bounds the size and depth of a filter', () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 20; i++) deep = { $and: [deep] };
    expect(status(() => checkFilter(deep))).toBe(400);
    expect(status(() => checkFilter({ a: { $in: Array.from({ length: 2000 }, (_, i) => i) } }))).toBe(400);
  });
});

describe('cursor', () => {
  it('round-trips the listing and refuses tampered cursors', () => {
    const state = { q: { a: 1 }, sort: '-updated_date', fields: ['id'], offset: 200 };
    expect(decodeCursor(encodeCursor(state))).toEqual(state);
    expect(status(() => decodeCursor('not a cursor!'))).toBe(400);
    expect(status(() => decodeCursor(Buffer.from('{"v":1,"offset":-5}').toString('base64url')))).toBe(400);
    expect(status(() => decodeCursor(Buffer.from('{"v":1,"offset":0,"sort":"a;b"}').toString('base64url')))).toBe(400);
    expect(status(() => decodeCursor(Buffer.from('{"v":1,"offset":0,"q":{"a":{"$bad":1}}}').toString('base64url')))).toBe(400);
  });
});
