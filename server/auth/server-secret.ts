/**
 * The server's secret (issue #25.3): it signs tokens (HS256), keys the hashes of reset tokens,
 * verification and sign-in codes, and derives the device keys' wrapping key (device-keys.ts). Every
 * instance serving one database must hold the same one, and it must never change on its own: a new
 * secret signs everyone out and leaves every wrapped device key unopenable.
 *
 * - `JWT_SECRET` set: that (at least 32 bytes, else the server refuses to start).
 * - `DATABASE_URL` without JWT_SECRET: kept in the database (`server_secrets`, store/server-secrets.ts),
 *   created by the first instance, read by all. A `DATA_DIR/jwt-secret` from before (when each
 *   instance made its own file) is moved into the database once, so an upgrade signs nobody out.
 * - Embedded PGlite without JWT_SECRET: `DATA_DIR/jwt-secret` (0600), next to the database it
 *   belongs to (one process per data directory anyway).
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { loadOrCreateSecret } from '../http/secret-file';
import { keepServerSecret } from '../store/server-secrets';

/** HS256 keys shorter than this can be brute-forced from any one token. */
export const MIN_SECRET_BYTES = 32;
const NAME = 'jwt-secret';

export interface SecretSource {
  jwtSecret?: string;
  databaseUrl?: string;
  dataDir: string;
  log: (line: string) => void;
}

export async function serverSecret({ jwtSecret, databaseUrl, dataDir, log }: SecretSource): Promise<string> {
  if (jwtSecret) {
    if (Buffer.byteLength(jwtSecret, 'utf8') < MIN_SECRET_BYTES) {
      throw new Error(`JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -base64 48)${databaseUrl ? ', or unset it to keep a generated secret in the database' : ''}`);
    }
    return jwtSecret;
  }
  const file = resolve(dataDir, NAME);
  if (!databaseUrl) return loadOrCreateSecret(file);

  const fromFile = readFileSecret(file);
  const kept = await keepServerSecret(databaseUrl, NAME, () => fromFile ?? randomBytes(32).toString('base64url'));
  if (kept.created && fromFile) {
    log(`JWT secret: moved ${file} into the database (table server_secrets); every instance now uses it, and the file is no longer read.`);
  } else if (kept.created) {
    log('JWT secret: generated and kept in the database (table server_secrets), shared by every instance. Set JWT_SECRET to keep it out of the database.');
  } else if (fromFile && fromFile !== kept.value) {
    log(`JWT secret: ${file} differs from the secret in the database; the database's is used (tokens signed with the file's are refused).`);
  }
  return kept.value;
}

/** The file's secret when it holds a usable one (loadOrCreateSecret's rule: 32 characters at least). */
function readFileSecret(path: string): string | null {
  if (!existsSync(path)) return null;
  const secret = readFileSync(path, 'utf8').trim();
  return secret.length >= 32 ? secret : null;
}
