/**
 * Issue #26 (docs/design.md S19): `npm run audit:verify` as an operator runs it, on a PGlite data
 * directory: "chain intact", then the first broken link and exit 1 after an edit made in the
 * database; and a clear refusal while a server holds the directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../server/store/index';
import { openPglite } from '../../../server/store/pglite-client';
import { operatorCommand } from '../../support/processes';

const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'passage-audit-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verify = async () => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [await operatorCommand('audit-verify')], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' } });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
};

describe('S19 npm run audit:verify', () => {
  it('reports an intact chain, refuses a held directory, and names the first broken link after a direct edit', async () => {
    const store = await createStore({ dataDir: dir });
    const rows = await store.createMany('passage', 'Participant', [{ first_name: 'A', last_name: 'B' }, { first_name: 'C', last_name: 'D' }], { by: null, byId: null });
    await store.update('passage', 'Participant', rows[0].id, { phone: '555' });
    const held = await verify();
    expect(held.code).toBe(2);
    expect(held.out).toMatch(/Stop the server first/);
    await store.close();

    expect(await verify()).toEqual({ code: 0, out: expect.stringMatching(/^passage: 3 events, chain intact \(head [0-9a-f]{64}\)/) });

    const sql = await openPglite(dir);
    await sql.transaction(async (tx) => {
      await tx.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change');
      await tx.query(`UPDATE audit_events SET data = jsonb_set(data, '{changes,phone,new}', '"999"') WHERE seq = 3`);
      await tx.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change');
    });
    await sql.close();
    const after = await verify();
    expect(after.code).toBe(1);
    expect(after.out).toContain('passage: chain BROKEN at seq 3 (id 000000000000000000000003)');
    expect(after.out).toContain('2 events before it are intact.');
  }, 60_000);
});
