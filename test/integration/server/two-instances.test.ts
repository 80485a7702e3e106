/**
 * Issue #25.6, the operator's checks through two server processes (server/main.ts) on one
 * PostgreSQL, as docs/deploy.md runs them behind a proxy: both probes on each; a token from A used
 * on B (JWT_SECRET set here, as the guide says to); a cohort code taken through A refused through B,
 * also when both are sent at once; the database stopped → 503 with Retry-After on both, /healthz
 * still 200; started again → both ready and answering with no restart; SIGTERM on A while B keeps
 * serving. Prints the times it measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, stopChild } from '../../support/processes';
// @ts-expect-error scripts/pg-cluster.mjs is plain JavaScript without type declarations
import { postgresAvailable, startCluster } from '../../../scripts/pg-cluster.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'passage-two-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = 'two-instances-secret-0123456789abcdef0123';
const APP = 'passage';
type Cluster = { url: string; stop: () => void; halt: () => void; resume: () => void };

async function boot(name: string, url: string, demo: '0' | '1') {
  const port = await freePort();
  const proc = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(scratch, name), DATABASE_URL: url, JWT_SECRET: SECRET, APP_ID: APP, DEMO: demo, LOG_FORMAT: 'json', TRUST_PROXY: '127.0.0.1' });
  return { name, base: `http://127.0.0.1:${port}`, proc };
}

async function pollUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!postgresAvailable())('two instances on one PostgreSQL', () => {
  it('probes, a shared token, one cohort code, a database outage and its end, SIGTERM on one', async () => {
    const cluster = (await startCluster()) as Cluster;
    const a = await boot('a', cluster.url, '1');
    const b = await boot('b', cluster.url, '0');
    const api = (s: { base: string }, path: string) => `${s.base}/api/apps/${APP}${path}`;
    try {
      for (const s of [a, b]) {
        for (const probe of ['/healthz', '/readyz']) {
          const res = await fetch(`${s.base}${probe}`);
          expect(res.status, `${s.name} ${probe}`).toBe(200);
          expect(res.headers.get('cache-control')).toBe('no-store');
          expect(await res.json()).toEqual({ status: 'ok' });
        }
      }

      const login = await fetch(api(a, '/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.org', password: 'demo-pass-2026' }) });
      expect(login.status).toBe(200);
      const { access_token: token } = (await login.json()) as { access_token: string };
      const auth = { authorization: `Bearer ${token}` };
      const meOnB = await fetch(api(b, '/entities/User/me'), { headers: auth });
      expect(meOnB.status).toBe(200);
      expect(((await meOnB.json()) as { email: string }).email).toBe('admin@example.org');

      const [program] = (await (await fetch(api(b, '/entities/Program?limit=1'), { headers: auth })).json()) as Array<{ id: string }>;
      const [site] = (await (await fetch(api(b, '/entities/Site?limit=1'), { headers: auth })).json()) as Array<{ id: string }>;
      const cohort = (s: { base: string }, code: string) =>
        fetch(api(s, '/entities/Cohort'), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ program_id: program.id, site_id: site.id, cohort_code: code }) });
      expect((await cohort(a, 'OPS-25-A')).status).toBe(200);
      expect((await cohort(b, 'OPS-25-A')).status).toBe(409);
      const both = await Promise.all([cohort(a, 'OPS-25-B'), cohort(b, 'OPS-25-B')]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);

      // The database goes away.
      const participants = (s: { base: string }) => fetch(api(s, '/entities/Participant?limit=5'), { headers: auth });
      cluster.halt();
      const downAt = Date.now();
      for (const s of [a, b]) {
        const res = await participants(s);
        expect(res.status, `${s.name} during the outage`).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(((await res.json()) as { code: string }).code).toBe('DATABASE_UNAVAILABLE');
        const ready = await fetch(`${s.base}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.headers.get('retry-after')).toBe('5');
        expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
      }
      const answeredIn = Date.now() - downAt;

      // It comes back: both instances recover by themselves.
      cluster.resume();
      const recovered = await Promise.all([a, b].map((s) => pollUntil(`${s.name} ready again`, async () => (await fetch(`${s.base}/readyz`)).status === 200, 20_000)));
      for (const s of [a, b]) expect((await participants(s)).status, `${s.name} after the outage`).toBe(200);

      // SIGTERM on A: it drains and exits 0 while B keeps answering.
      const exited = new Promise<number | null>((res) => a.proc.child.once('exit', (code) => res(code)));
      const termAt = Date.now();
      a.proc.child.kill('SIGTERM');
      const during = await Promise.all(Array.from({ length: 10 }, () => participants(b).then((r) => r.status)));
      expect(await exited).toBe(0);
      const stoppedIn = Date.now() - termAt;
      expect(during).toEqual(Array(10).fill(200));
      expect((await participants(b)).status).toBe(200);
      expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
      await expect(fetch(`${a.base}/healthz`)).rejects.toThrow();

      console.log(
        `two instances: outage answered 503 on both within ${answeredIn} ms of the stop; ready again ${recovered.join(' / ')} ms after the start; ` +
          `A stopped (exit 0) in ${stoppedIn} ms while B answered 10 of 10`,
      );
    } finally {
      await stopChild(a.proc.child);
      await stopChild(b.proc.child);
      cluster.stop();
    }
  }, 300_000);
});

describe('settings an operator gets wrong', () => {
  it('refuses to start, naming the setting, when TRUST_PROXY, LOG_LEVEL, DATABASE_POOL_SIZE or SHUTDOWN_DELAY_MS is malformed', async () => {
    const port = await freePort();
    const start = (env: Record<string, string>) =>
      startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(scratch, 'refused'), DATABASE_URL: '', JWT_SECRET: SECRET, DEMO: '0', LOG_FORMAT: 'json', TRUST_PROXY: '', ...env });
    await expect(start({ TRUST_PROXY: 'yes' })).rejects.toThrow(/exited early[\s\S]*Passage could not start: TRUST_PROXY must be the number of proxies/);
    await expect(start({ TRUST_PROXY: '10.0.0.0/8,300.1.2.3' })).rejects.toThrow(/exited early[\s\S]*TRUST_PROXY must be[\s\S]*300\.1\.2\.3/);
    await expect(start({ DATABASE_POOL_SIZE: '0' })).rejects.toThrow(/exited early[\s\S]*DATABASE_POOL_SIZE must be a whole number/);
    await expect(start({ SHUTDOWN_DELAY_MS: '5000' })).rejects.toThrow(/exited early[\s\S]*SHUTDOWN_DELAY_MS must be/);
    // LOG_LEVEL is read before the logger exists: the message comes as a plain line.
    await expect(start({ LOG_LEVEL: 'verbose' })).rejects.toThrow(/exited early[\s\S]*Passage could not start: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/);
  }, 120_000);
});
