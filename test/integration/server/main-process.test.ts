/**
 * server/main.ts as a real process: boots on a free port with a fresh DATA_DIR, seeds the demo
 * data once, keeps its JWT secret in DATA_DIR/jwt-secret (0600), answers, and exits 0 on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/processes';

const ROOT = resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'passage-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));


async function boot(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '', JWT_SECRET: '', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // Start-up is tsx + PGlite initdb on disk + seeding: ~5 s idle, 25 s measured on 2 cores under a
  // load average of 14; 90 s leaves room.
  const deadline = Date.now() + 90_000;
  while (!out.includes('Passage is running at')) {
    if (child.exitCode !== null) throw new Error(`exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`no start-up line:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((res) => {
    child.once('exit', (code) => res(code));
    child.kill('SIGTERM');
  });
}

describe('server/main.ts', () => {
  it('boots, seeds once, signs in a demo account and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = await boot(port);
    expect(first.output()).toContain(`http://127.0.0.1:${port}/`);
    expect(first.output()).toMatch(/Demo data created: 5 User, 3 Program, 4 Site, 6 Cohort, \d+ Session, 40 Participant/);
    expect(first.output()).toContain('coach@example.org');
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);

    const base = `http://127.0.0.1:${port}/api/apps/passage`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'coach@example.org', password: 'demo-pass-2026' }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const count = await fetch(`${base}/entities/Participant/count`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await count.json()).toEqual({ count: 40 });

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
    const second = await boot(port);
    expect(second.output()).not.toContain('Demo data created');
    const again = await fetch(`${base}/entities/Participant/count`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await again.json()).toEqual({ count: 40 });
    expect(await stop(second.child)).toBe(0);
  }, 240_000);
});
