/**
 * Issue #24.2 at the process level: an open event stream never finishes by itself, so SIGTERM must
 * end it first instead of waiting out the 7 s grace for in-flight requests (server/main.ts). The
 * server runs as a real process on embedded PGlite with the demo accounts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../server/demo/accounts';
import { freePort, startServerProcess, stopChild } from '../../support/processes';
import { readSse } from '../../support/sse-reader';

const dataDir = mkdtempSync(join(tmpdir(), 'passage-events-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM with an open event stream', () => {
  it('ends the stream and exits without waiting for the in-flight grace', async () => {
    const port = await freePort();
    const server = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', JWT_SECRET: '' });
    try {
      const base = `http://127.0.0.1:${port}/api/apps/passage`;
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'coach@example.org', password: DEMO_PASSWORD }),
      });
      const { access_token } = (await login.json()) as { access_token: string };
      const stream = readSse(await fetch(`${base}/events`, { headers: { authorization: `Bearer ${access_token}` } }));
      await stream.until((t) => t.includes(': connected'));

      const exited = new Promise<number | null>((res) => server.child.once('exit', (code) => res(code)));
      server.child.kill('SIGTERM');
      // The stream ends (the server closed it) rather than being cut with the process.
      await stream.until(() => false, 60_000).catch((err: Error) => expect(err.message).toContain('The stream ended'));
      expect(await exited, server.output()).toBe(0);
      expect(server.output()).not.toContain('Requests did not finish within');
    } finally {
      await stopChild(server.child);
    }
  }, 180_000);
});
