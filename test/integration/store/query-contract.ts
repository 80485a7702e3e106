/** sort, limit, skip and fields (platform-contract.md sections 2 and 7). */
import { expect, it } from 'vitest';
import type { EntityRecord } from '../../../server/store/types';
import { type ContractContext, expect400, freshApp, meta } from './contract-helpers';
import { cdcrKey } from '../../../shared/participant-keys';

export function registerQueryContractTests({ store }: ContractContext) {
  const names = (rows: EntityRecord[]) => rows.map((r) => r.name);

  it('sorts numbers numerically, types in a fixed order, missing values first ascending', async () => {
    const app = freshApp();
    await store().createMany(app, 'T', [
      { name: 'ten', v: 10 }, { name: 'two', v: 2 }, { name: 'nine', v: 9 }, { name: 'str', v: '3' },
      { name: 'none' }, { name: 'true', v: true },
    ], meta);
    expect(names(await store().list(app, 'T', { sort: 'v' }))).toEqual(['none', 'two', 'nine', 'ten', 'str', 'true']);
    expect(names(await store().list(app, 'T', { sort: '+v' }))).toEqual(['none', 'two', 'nine', 'ten', 'str', 'true']);
    expect(names(await store().list(app, 'T', { sort: '-v' }))).toEqual(['true', 'str', 'ten', 'nine', 'two', 'none']);
  });

  it('sorts strings byte-wise and by nested fields', async () => {
    const app = freshApp();
    await store().createMany(app, 'T', [
      { name: 'b', at: '2024-03-01T10:00:00.000Z', loc: { city: 'Rome' } },
      { name: 'a', at: '2024-03-01T09:59:59.999Z', loc: { city: 'Oslo' } },
      { name: 'c', at: '2023-12-31T23:00:00.000Z', loc: { city: 'Bergen' } },
    ], meta);
    expect(names(await store().list(app, 'T', { sort: 'at' }))).toEqual(['c', 'a', 'b']);
    expect(names(await store().list(app, 'T', { sort: '-loc.city' }))).toEqual(['b', 'a', 'c']);
  });

  it('defaults to -created_date and breaks ties by id in the sort direction', async () => {
    const app = freshApp();
    const made = await store().createMany(app, 'T', [{ name: '1', g: 1 }, { name: '2', g: 1 }, { name: '3', g: 1 }], meta);
    expect(names(await store().list(app, 'T', {}))).toEqual(['3', '2', '1']);
    expect(names(await store().list(app, 'T', { sort: 'created_date' }))).toEqual(['1', '2', '3']);
    const ids = made.map((r) => r.id).sort();
    expect((await store().list(app, 'T', { sort: 'g' })).map((r) => r.id)).toEqual(ids);
    expect((await store().list(app, 'T', { sort: '-g' })).map((r) => r.id)).toEqual([...ids].reverse());
    expect((await store().list(app, 'T', { sort: 'id' })).map((r) => r.id)).toEqual(ids);
  });

  it('limit defaults to 5000 and is capped at 5001 (a page and one more); skip pages through', async () => {
    const app = freshApp();
    await store().createMany(app, 'T', Array.from({ length: 5003 }, (_, i) => ({ i })), meta);
    expect(await store().list(app, 'T', {})).toHaveLength(5000);
    expect(await store().list(app, 'T', { limit: 5001 })).toHaveLength(5001);
    expect(await store().list(app, 'T', { limit: 9000 })).toHaveLength(5001);
    expect(await store().list(app, 'T', { skip: 5000 })).toHaveLength(3);
    const page = await store().list(app, 'T', { sort: 'i', limit: 2, skip: 10 });
    expect(page.map((r) => r.i)).toEqual([10, 11]);
    expect(await store().count(app, 'T')).toBe(5003);
  });

  it('rejects a negative or fractional limit or skip', async () => {
    const app = freshApp();
    await expect400(store().list(app, 'T', { limit: -1 }), /limit/);
    await expect400(store().list(app, 'T', { limit: 1.5 }), /limit/);
    await expect400(store().list(app, 'T', { skip: -3 }), /skip/);
  });

  it('fields projects the records and always keeps id', async () => {
    const app = freshApp();
    const r = await store().create(app, 'T', { name: 'Ana', phone: '555', loc: { city: 'Oslo', zip: 1 } }, meta);
    expect(await store().list(app, 'T', { fields: ['name', 'missing'] })).toEqual([{ id: r.id, name: 'Ana' }]);
    expect(await store().list(app, 'T', { fields: ['id'] })).toEqual([{ id: r.id }]);
    expect(await store().list(app, 'T', { fields: ['loc.city', 'updated_date'] })).toEqual([
      { id: r.id, loc: { city: 'Oslo', zip: 1 }, updated_date: r.updated_date },
    ]);
    expect(await store().list(app, 'T', { fields: [] })).toEqual([r]);
  });

  it('rejects injection through sort and fields and changes nothing', async () => {
    const app = freshApp();
    await store().create(app, 'T', { name: 'kept' }, meta);
    for (const sort of ['id; DROP TABLE records', '-', 'name,age', "name' --", 'name desc']) {
      await expect400(store().list(app, 'T', { sort }), /field name/);
    }
    await expect400(store().list(app, 'T', { fields: ['name', 'x); DELETE FROM records; --'] }), /field name/);
    expect(names(await store().list(app, 'T', {}))).toEqual(['kept']);
  });

  it('finds participants by CDCR key as shared/participant-keys.ts computes it (issue #23.7)', async () => {
    const app = freshApp();
    const typed = ['AB-1234', 'ab 1234', 'Ab.12_34', 'K-5', 'ßk5', 'é-K5', '--', 'AB12345'];
    await store().createMany(app, 'Participant', typed.map((cdcr_number, i) => ({ name: `p${i}`, cdcr_number })), meta);
    await store().createMany(app, 'Participant', [{ name: 'none' }, { name: 'null', cdcr_number: null }], meta);
    await store().createMany(app, 'Other', [{ name: 'other', cdcr_number: 'AB1234' }], meta);
    for (const key of ['AB1234', 'K5', 'AB12345']) {
      const expected = typed.flatMap((t, i) => (cdcrKey(t) === key ? [`p${i}`] : []));
      expect(names(await store().participantsByCdcrKey(app, [key], 50)).sort()).toEqual(expected.sort());
    }
    expect(names(await store().participantsByCdcrKey(app, ['AB1234', 'K5'], 50))).toHaveLength(6);
    expect(await store().participantsByCdcrKey(app, ['AB1234'], 2)).toHaveLength(2);
    expect(await store().participantsByCdcrKey(app, [], 50)).toEqual([]);
  });
}
