/** The filter language (platform-contract.md 2.1) against a small fixture of mixed JSON types. */
import { beforeAll, expect, it } from 'vitest';
import type { EntityRecord, Filter } from '../../../server/store/types';
import { type ContractContext, expect400, freshApp, meta } from './contract-helpers';

const FIXTURE = [
  {
    key: 'a', n: 5, s: 'apple', tags: ['x', 'y'], flag: true, nested: { city: 'Oslo', zip: 100 },
    items: [{ k: 'p', q: 1 }, { k: 'r', q: 5 }], d: '2024-01-05T00:00:00.000Z',
  },
  { key: 'b', n: '5', s: 'Banana', tags: ['y'], flag: 'true', nested: { city: 'Rome' }, items: [{ k: 'p', q: 9 }], d: '2024-02-01T00:00:00.000Z' },
  { key: 'c', n: 10, s: 'cherry', tags: [], flag: false, nested: null, d: '2023-12-31T23:59:59.999Z' },
  { key: 'd', n: 2, s: null, tags: ['z'], items: [] },
  { key: 'e' },
  { key: 'f', n: 2.5, s: 'apple pie', tags: 'x' },
];

export function registerFilterContractTests({ store }: ContractContext) {
  const app = freshApp();
  let rows: EntityRecord[] = [];
  beforeAll(async () => {
    rows = await store().createMany(app, 'Thing', FIXTURE, meta);
  });
  const byKey = (k: string) => rows.find((r) => r.key === k)!;
  const keys = async (q: Filter) => {
    const found = (await store().list(app, 'Thing', { q })).map((r) => String(r.key)).sort();
    expect(await store().count(app, 'Thing', q), 'count agrees with list').toBe(found.length);
    return found.join('');
  };

  it('plain values match exactly, with JSON types (5 ≠ "5", true ≠ "true")', async () => {
    expect(await keys({ n: 5 })).toBe('a');
    expect(await keys({ n: '5' })).toBe('b');
    expect(await keys({ flag: true })).toBe('a');
    expect(await keys({ flag: 'true' })).toBe('b');
    expect(await keys({ n: 5, s: 'apple' })).toBe('a');
    expect(await keys({ n: 5, s: 'cherry' })).toBe('');
    expect(await keys({})).toBe('abcdef');
  });

  it('a plain value also matches an array field holding it; an array is "any of"', async () => {
    expect(await keys({ tags: 'x' })).toBe('af');
    expect(await keys({ key: ['a', 'c', 'zz'] })).toBe('ac');
    expect(await keys({ tags: ['z', 'x'] })).toBe('adf');
  });

  it('null matches null and missing fields', async () => {
    expect(await keys({ s: null })).toBe('de');
    expect(await keys({ nested: null })).toBe('cdef');
  });

  it('objects match exactly and dotted paths reach inside', async () => {
    expect(await keys({ nested: { city: 'Rome' } })).toBe('b');
    expect(await keys({ nested: { city: 'Oslo' } })).toBe('');
    expect(await keys({ 'nested.city': 'Oslo' })).toBe('a');
    expect(await keys({ 'nested.zip': { $gt: 50 } })).toBe('a');
  });

  it('$eq and $ne ($ne also matches missing fields)', async () => {
    expect(await keys({ n: { $eq: 5 } })).toBe('a');
    expect(await keys({ tags: { $eq: ['y'] } })).toBe('b');
    expect(await keys({ n: { $ne: 5 } })).toBe('bcdef');
    expect(await keys({ s: { $ne: null } })).toBe('abcf');
    expect(await keys({ s: { $eq: null } })).toBe('de');
  });

  it('$gt $gte $lt $lte order numbers numerically and skip other types', async () => {
    expect(await keys({ n: { $gt: 5 } })).toBe('c'); // 10 > 5 (as text "10" < "5")
    expect(await keys({ n: { $gt: 2 } })).toBe('acf');
    expect(await keys({ n: { $gte: 2 } })).toBe('acdf');
    expect(await keys({ n: { $lt: 5 } })).toBe('df');
    expect(await keys({ n: { $lte: 5 } })).toBe('adf');
    expect(await keys({ n: { $gt: 2, $lt: 10 } })).toBe('af');
  });

  it('string comparisons are byte-wise, so ISO dates compare chronologically', async () => {
    expect(await keys({ s: { $gte: 'apple' } })).toBe('acf');
    expect(await keys({ s: { $lt: 'apple' } })).toBe('b'); // "B" sorts before "a"
    expect(await keys({ d: { $gte: '2024-01-01T00:00:00.000Z', $lt: '2024-02-01T00:00:00.000Z' } })).toBe('a');
    expect(await keys({ d: { $lt: '2024-01-01' } })).toBe('c');
  });

  it('$in and $nin', async () => {
    expect(await keys({ n: { $in: [5, 10] } })).toBe('ac');
    expect(await keys({ n: { $in: ['5', null] } })).toBe('be');
    expect(await keys({ tags: { $in: ['z', 'x'] } })).toBe('adf');
    expect(await keys({ n: { $in: [] } })).toBe('');
    expect(await keys({ n: { $nin: [5, 10] } })).toBe('bdef');
  });

  it('long $in lists (answered without the index) mean the same', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `v${i}`);
    expect(await keys({ tags: { $in: ['z', 'x', ...filler] } })).toBe('adf');
    expect(await keys({ n: { $in: [5, 10, ...filler, 1000, 1001] } })).toBe('ac');
    expect(await keys({ n: { $in: ['5', null, ...filler] } })).toBe('be');
    expect(await keys({ key: [...filler, 'b'] })).toBe('b');
    expect(await keys({ n: { $nin: [5, 10, ...filler] } })).toBe('bdef');
  });

  it('$exists', async () => {
    expect(await keys({ s: { $exists: true } })).toBe('abcdf');
    expect(await keys({ s: { $exists: false } })).toBe('e');
    expect(await keys({ items: { $exists: false } })).toBe('cef');
  });

  it('$regex, with $options "i"', async () => {
    expect(await keys({ s: { $regex: '^apple' } })).toBe('af');
    expect(await keys({ s: { $regex: '^b' } })).toBe('');
    expect(await keys({ s: { $regex: '^b', $options: 'i' } })).toBe('b');
    expect(await keys({ s: { $regex: 'an{1}a' } })).toBe('b');
  });

  it('$not negates operators and matches missing fields', async () => {
    expect(await keys({ n: { $not: { $gt: 2 } } })).toBe('bde');
    expect(await keys({ s: { $not: { $regex: 'e' } } })).toBe('bde');
  });

  it('$and, $or and $nor', async () => {
    expect(await keys({ $and: [{ tags: 'y' }, { n: 5 }] })).toBe('a');
    expect(await keys({ $or: [{ n: 10 }, { s: 'Banana' }] })).toBe('bc');
    expect(await keys({ $nor: [{ tags: 'x' }, { key: 'e' }] })).toBe('bcd');
    expect(await keys({ key: { $ne: 'c' }, $or: [{ n: { $gte: 10 } }, { $and: [{ tags: 'y' }, { flag: 'true' }] }] })).toBe('b');
  });

  it('$all, $size and $elemMatch on array fields', async () => {
    expect(await keys({ tags: { $all: ['x', 'y'] } })).toBe('a');
    expect(await keys({ tags: { $all: ['y'] } })).toBe('ab');
    expect(await keys({ tags: { $size: 0 } })).toBe('c');
    expect(await keys({ tags: { $size: 1 } })).toBe('bd');
    // Both conditions must hold for one element: a has p (q 1) and r (q 5), which is not enough.
    expect(await keys({ items: { $elemMatch: { k: 'p', q: { $gte: 5 } } } })).toBe('b');
    expect(await keys({ items: { $elemMatch: { q: { $gte: 5 } } } })).toBe('ab');
    expect(await keys({ tags: { $elemMatch: { $in: ['z'] } } })).toBe('d');
  });

  it('platform fields filter like any other field', async () => {
    const [a, c] = [byKey('a'), byKey('c')];
    expect(await keys({ id: a.id })).toBe('a');
    expect(await keys({ id: { $in: [a.id, c.id] } })).toBe('ac');
    expect(await keys({ id: { $ne: a.id } })).toBe('bcdef');
    expect(await keys({ created_date: { $gte: c.created_date } })).toBe('cdef');
    expect(await keys({ updated_date: { $gt: a.updated_date, $lte: c.updated_date } })).toBe('bc');
    expect(await keys({ updated_date: 5 })).toBe('');
    expect(await keys({ created_by: 'coach@example.org', created_by_id: 'user-1' })).toBe('abcdef');
  });

  it('a catastrophic $regex is a 400 naming $regex before it reaches SQL, and the store still answers', async () => {
    // (a{1,255}){1,255} once answered 200 [] on PGlite and froze the next query for good.
    for (const pattern of ['(a{1,255}){1,255}', '(a+)+', '(a|aa)*(b*)*', 'a{1,101}', '(.)\\1', 'x'.repeat(201)]) {
      await expect400(store().list(app, 'Thing', { q: { s: { $regex: pattern } } }), /\$regex/);
      await expect400(store().count(app, 'Thing', { s: { $regex: pattern } }), /\$regex/);
    }
    expect(await keys({ s: { $regex: '^a' } })).toBe('af');
    expect(await keys({})).toBe('abcdef');
  });

  it('invalid queries and injection attempts are 400s and change nothing', async () => {
    const bad: unknown[] = [
      { $where: 'sleep(10)' },
      { n: { $foo: 1 } },
      { n: { $gt: {} } },
      { n: { $gt: true } },
      { n: { $in: 5 } },
      { n: { $exists: 'yes' } },
      { tags: { $size: -1 } },
      { s: { $regex: '(' } },
      { s: { $regex: 5 } },
      { s: { $regex: 'a', $options: 'g' } },
      { s: { $options: 'i' } },
      { n: { $not: 5 } },
      { n: { $gt: 1, x: 1 } },
      { items: { $elemMatch: 'p' } },
      { $or: [] },
      { $and: {} },
      [],
      'key',
      5,
      { "key'; DROP TABLE records; --": 1 },
      { 'a"b': 1 },
      { 'a) OR (1=1': 1 },
      { '': 1 },
      { 'nested..city': 1 },
    ];
    for (const q of bad) await expect400(store().list(app, 'Thing', { q: q as Filter }), /./);
    await expect400(store().count(app, 'Thing', { $where: '1' }), /\$where/);
    expect(await keys({})).toBe('abcdef');
    expect(await store().get(app, 'Thing', byKey('a').id)).toEqual(byKey('a'));
  });
}
