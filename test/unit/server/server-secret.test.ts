/** Issue #25.3: where the server's secret comes from without a database to keep it (PGlite, JWT_SECRET). */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverSecret } from '../../../server/auth/server-secret';

const dir = mkdtempSync(join(tmpdir(), 'passage-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = () => {};

describe('serverSecret', () => {
  it('takes JWT_SECRET of 32 bytes or more, counted in bytes, and refuses a shorter one naming it', async () => {
    expect(await serverSecret({ jwtSecret: 'x'.repeat(32), dataDir: dir, log })).toBe('x'.repeat(32));
    expect(await serverSecret({ jwtSecret: 'é'.repeat(16), dataDir: dir, log })).toBe('é'.repeat(16)); // 32 bytes in UTF-8
    await expect(serverSecret({ jwtSecret: 'x'.repeat(31), dataDir: dir, log })).rejects.toThrow(/JWT_SECRET must be at least 32 bytes/);
    await expect(serverSecret({ jwtSecret: 'short', databaseUrl: 'postgres://nowhere/db', dataDir: dir, log })).rejects.toThrow(
      /JWT_SECRET must be at least 32 bytes.*or unset it to keep a generated secret in the database/,
    );
  });

  it('keeps the embedded database’s secret in DATA_DIR/jwt-secret (0600), the same at every start', async () => {
    const first = await serverSecret({ dataDir: dir, log });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(await serverSecret({ dataDir: dir, log })).toBe(first);
  });
});
