/** Auth records and app logs. */
import { expect, it } from 'vitest';
import { type ContractContext, ISO_MS, freshApp } from './contract-helpers';

export function registerAuthAndLogTests({ store }: ContractContext) {
  it('keeps one auth record per email, case-insensitively, apart per app', async () => {
    const app = freshApp();
    expect(await store().getAuth(app, 'ana@example.org')).toBeNull();
    await store().putAuth(app, 'Ana@Example.org', { user_id: 'u1', email: 'ana@example.org', password_hash: 'h1', failed: 0 });
    await store().putAuth(app, 'ana@example.org', { user_id: 'u1', email: 'ana@example.org', password_hash: 'h2', failed: 2 });
    expect(await store().getAuth(app, 'ANA@example.org')).toEqual({ user_id: 'u1', email: 'ana@example.org', password_hash: 'h2', failed: 2 });
    expect(await store().getAuth(freshApp(), 'ana@example.org')).toBeNull();
  });

  it('updateAuth loses no update: 50 concurrent increments and a password change all land (issue #10.2)', async () => {
    const app = freshApp();
    await store().putAuth(app, 'ana@example.org', { user_id: 'u1', email: 'ana@example.org', password_hash: 'old', n: 0 });
    const bump = () => store().updateAuth(app, 'ana@example.org', (a) => ({ ...a, n: (a.n as number) + 1 }));
    const change = store().updateAuth(app, 'Ana@example.org', (a) => ({ ...a, password_hash: 'new' }));
    await Promise.all([...Array.from({ length: 25 }, bump), change, ...Array.from({ length: 25 }, bump)]);
    expect(await store().getAuth(app, 'ana@example.org')).toMatchObject({ password_hash: 'new', n: 50 });
    // A change that throws writes nothing; a missing record is null and change is not called.
    await expect(store().updateAuth(app, 'ana@example.org', () => { throw new Error('no'); })).rejects.toThrow('no');
    expect(await store().getAuth(app, 'ana@example.org')).toMatchObject({ n: 50 });
    expect(await store().updateAuth(app, 'ghost@example.org', () => { throw new Error('not called'); })).toBeNull();
  });

  it('lists app logs newest first with limit and skip', async () => {
    const app = freshApp();
    for (const page of ['Home', 'Participants', 'Cohorts']) {
      await store().appendLog(app, { page, user_id: 'u1', user_email: 'a@example.org' });
    }
    const logs = await store().listLogs(app, {});
    expect(logs.map((l) => l.page)).toEqual(['Cohorts', 'Participants', 'Home']);
    expect(logs[0]).toMatchObject({ user_id: 'u1', user_email: 'a@example.org' });
    expect(logs[0].id).toMatch(/^[0-9a-f]{24}$/);
    expect(logs[0].created_date).toMatch(ISO_MS);
    expect((await store().listLogs(app, { limit: 1, skip: 1 })).map((l) => l.page)).toEqual(['Participants']);
    expect(await store().listLogs(freshApp(), {})).toEqual([]);
  });
}
