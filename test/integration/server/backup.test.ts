/**
 * Issue #25.5: `npm run backup` / `npm run restore` of the embedded database, through the real
 * scripts and server processes: refused while a server holds DATA_DIR, refused into a directory that
 * is not empty, and a round trip in which records, accounts, sign-in, devices and a token issued
 * before the backup all survive (the secret file travels inside the backup).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, operatorCommand, startServerProcess, stopChild } from '../../support/processes';

const scratch = mkdtempSync(join(tmpdir(), 'passage-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ROOT = resolve(import.meta.dirname, '../../..');
const script = async (name: 'backup' | 'restore', file: string, dataDir: string) =>
  spawnSync(process.execPath, [await operatorCommand(name), file], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });

const boot = (port: number, dataDir: string) =>
  startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', JWT_SECRET: '', DATABASE_URL: '', APP_ID: 'passage' });

describe('backup and restore of the embedded database', () => {
  it('round trip: records, accounts, devices and an earlier token survive; refused while the server runs', async () => {
    const original = join(scratch, 'data');
    const file = join(scratch, 'passage.tar.gz');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/apps/passage`;
    const first = await boot(port, original);
    let token: string;
    let key: string;
    const deviceId = 'backup-test-tablet-01';
    const deviceKey = async (t: string) => {
      const res = await fetch(`${base}/functions/deviceKey`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify({ device_id: deviceId }) });
      expect(res.status).toBe(200);
      return (await res.json()) as { key: string; previous: string | null };
    };
    try {
      const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.org', password: 'demo-pass-2026', device_id: deviceId }) });
      token = ((await login.json()) as { access_token: string }).access_token;
      const created = await fetch(`${base}/entities/Participant`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Robin', last_name: 'Backupson' }) });
      expect(created.status).toBe(200);
      key = (await deviceKey(token)).key;

      const refused = await script('backup', file, original);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/Cannot back up now: The data directory .* is in use by process \d+.*Stop the server first/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await stopChild(first.child);
    }

    const made = await script('backup', file, original);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/Backed up .* \(\d+\.\d MB, \d+ ms\)/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Not into a directory that holds anything (here: the original).
    const overwrite = await script('restore', file, original);
    expect(overwrite.status).toBe(1);
    expect(overwrite.stderr).toMatch(/is not empty .* restore into an empty DATA_DIR/);
    const notBackup = join(scratch, 'not-a-backup.txt');
    writeFileSync(notBackup, 'hello');
    expect((await script('restore', notBackup, join(scratch, 'other'))).stderr).toMatch(/is not a Passage backup/);

    const restoredDir = join(scratch, 'restored');
    mkdirSync(restoredDir);
    const restored = await script('restore', file, restoredDir);
    expect(restored.status, restored.stderr).toBe(0);
    expect(existsSync(join(restoredDir, 'passage.lock'))).toBe(false);

    const second = await boot(port, restoredDir);
    try {
      expect(second.output()).not.toContain('Demo data created'); // the restored data, not a fresh seed
      // The token issued before the backup still works (same secret, same session).
      const found = await fetch(`${base}/entities/Participant?q=${encodeURIComponent(JSON.stringify({ last_name: 'Backupson' }))}`, { headers: { authorization: `Bearer ${token!}` } });
      expect(found.status).toBe(200);
      expect(((await found.json()) as Array<{ first_name: string }>).map((p) => p.first_name)).toEqual(['Robin']);
      const count = await fetch(`${base}/entities/Participant/count`, { headers: { authorization: `Bearer ${token!}` } });
      expect(await count.json()).toEqual({ count: 41 });
      // The device and its key (wrapped with the restored secret) are there: the next release rotates from it.
      expect((await deviceKey(token!)).previous).toBe(key!);
      // Passwords (auth records) survive: a fresh sign-in works.
      const again = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'coach@example.org', password: 'demo-pass-2026' }) });
      expect(again.status).toBe(200);
    } finally {
      await stopChild(second.child);
    }
  }, 300_000);
});
