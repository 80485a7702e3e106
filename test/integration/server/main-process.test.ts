/**
 * server/main.ts as a real process: boots on a free port with a fresh DATA_DIR, seeds the demo
 * data once, keeps its JWT secret in DATA_DIR/jwt-secret (0600) and each user's device key in the
 * database, answers, and exits 0 on SIGTERM; refuses to start with a device policy out of range.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../support/processes';
import { DEFAULT_DEVICE_POLICY } from '../../../server/device-policy';

const bootMain = (port: number, env: Record<string, string> = {}) =>
  startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '', JWT_SECRET: '', DATABASE_URL: '', PIN_MIN_LENGTH: '', IDLE_LOCK_MINUTES: '', ...env });

const dataDir = mkdtempSync(join(tmpdir(), 'passage-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));



function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((res) => {
    child.once('exit', (code) => res(code));
    child.kill('SIGTERM');
  });
}

describe('server/main.ts', () => {
  it('boots, seeds once, signs in a demo account and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = await bootMain(port);
    expect(first.output()).toContain(`http://127.0.0.1:${port}/`);
    expect(first.output()).toMatch(/Demo data created: 5 User, 3 Program, 4 Site, 6 Cohort, \d+ Session, 40 Participant/);
    // The demo accounts are printed right after "running at", and may come in a later chunk of stdout.
    await expect.poll(() => first.output(), { timeout: 5_000 }).toContain('coach@example.org');
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);

    const base = `http://127.0.0.1:${port}/api/apps/passage`;
    const deviceId = 'main-process-tablet-01';
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'coach@example.org', password: 'demo-pass-2026', device_id: deviceId }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const count = await fetch(`${base}/entities/Participant/count`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await count.json()).toEqual({ count: 40 });
    const deviceKey = async () => {
      const res = await fetch(`${base}/functions/deviceKey`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: deviceId }),
      });
      return (await res.json()) as { key: string; previous: string | null; policy: unknown };
    };
    const firstKey = await deviceKey();
    expect(firstKey.policy).toEqual({ pin_min_length: DEFAULT_DEVICE_POLICY.pinMinLength, idle_lock_minutes: DEFAULT_DEVICE_POLICY.idleLockMinutes });
    expect(firstKey.previous).toBeNull();
    expect(first.output()).not.toContain(firstKey.key);

    // Over a real socket (issue #11): the participant list arrives brotli- or gzip-encoded when
    // asked and decodes (fetch undoes the encoding) to the same records as the plain answer.
    const read = async (encoding: string) => {
      const res = await fetch(`${base}/entities/Participant`, { headers: { authorization: `Bearer ${access_token}`, 'accept-encoding': encoding } });
      return { encoding: res.headers.get('content-encoding'), vary: res.headers.get('vary'), body: await res.json() };
    };
    const plain = await read('identity');
    expect(plain.encoding).toBeNull();
    expect(plain.body).toHaveLength(40);
    for (const encoding of ['br', 'gzip']) {
      const packed = await read(encoding);
      expect(packed.encoding).toBe(encoding);
      expect(packed.vary).toMatch(/accept-encoding/i);
      expect(packed.body).toEqual(plain.body);
    }

    const started = Date.now();
    expect(await stop(first.child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);

    // Second start: same secret (the old token still works) and no second seeding.
    const second = await bootMain(port);
    expect(second.output()).not.toContain('Demo data created');
    const again = await fetch(`${base}/entities/Participant/count`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await again.json()).toEqual({ count: 40 });
    expect((await deviceKey()).previous).toBe(firstKey.key); // kept on disk (wrapped), rotated on release
    expect(await stop(second.child)).toBe(0);
  }, 240_000);

  it('refuses to start when PIN_MIN_LENGTH or IDLE_LOCK_MINUTES is out of range', async () => {
    const port = await freePort();
    await expect(bootMain(port, { PIN_MIN_LENGTH: '3' })).rejects.toThrow(/exited early[\s\S]*PIN_MIN_LENGTH must be a whole number from 6 to 12/);
    await expect(bootMain(port, { IDLE_LOCK_MINUTES: '45' })).rejects.toThrow(/exited early[\s\S]*IDLE_LOCK_MINUTES must be a number of minutes above 0 and at most 30/);
  }, 120_000);
});
