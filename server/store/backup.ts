/**
 * Backup and restore of the embedded database (issue #25.5): `npm run backup -- <file>` and
 * `npm run restore -- <file>` (scripts/backup.ts, scripts/restore.ts). PostgreSQL deployments use
 * pg_dump / pg_restore instead (docs/deploy.md).
 *
 * A backup is PGlite's own dump of the data directory (`dumpDataDir`, a gzip'd tar of the whole
 * directory): every table, and the files beside them, among them `jwt-secret` — so tokens, reset
 * links and the device keys wrapped with it keep working after a restore. The file holds password
 * hashes and everyone's records: keep it as safe as the server itself.
 *
 * Both take the data directory's lock (dir-lock.ts), so neither runs while a server has it open:
 * PGlite is one process, and a copy taken under a running server would be torn.
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock';

const LOCK_FILE = 'passage.lock';

export interface BackupSummary {
  file: string;
  bytes: number;
  ms: number;
}

function lockOrExplain(dataDir: string, what: string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (err) {
    throw new Error(`Cannot ${what} now: ${(err as Error).message} Stop the server first (a backup takes seconds).`);
  }
}

/** Dumps DATA_DIR into `file` (written to `file.partial` first, then renamed: never a half file). */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupSummary> {
  const dir = resolve(dataDir);
  if (!existsSync(resolve(dir, 'PG_VERSION'))) throw new Error(`${dir} holds no Passage database (no PG_VERSION): check DATA_DIR.`);
  const started = performance.now();
  const unlock = lockOrExplain(dir, 'back up');
  try {
    const db = await PGlite.create(dir);
    try {
      // A checkpoint first, so the dump needs no WAL replay to be consistent.
      await db.query('CHECKPOINT');
      const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
      const partial = `${resolve(file)}.partial`;
      writeFileSync(partial, dump, { mode: 0o600 });
      renameSync(partial, resolve(file));
      return { file: resolve(file), bytes: dump.length, ms: Math.round(performance.now() - started) };
    } finally {
      await db.close();
    }
  } finally {
    unlock();
  }
}

/** Restores a backup into an empty (or missing) DATA_DIR; refuses a directory that holds anything. */
export async function restoreDataDir(file: string, dataDir: string): Promise<{ ms: number }> {
  const dir = resolve(dataDir);
  const raw = readFileSync(resolve(file));
  if (raw.length < 2 || raw[0] !== 0x1f || raw[1] !== 0x8b) throw new Error(`${resolve(file)} is not a Passage backup (not gzip data).`);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory.`);
  const present = existsSync(dir) ? readdirSync(dir).filter((n) => n !== LOCK_FILE) : [];
  if (present.length > 0) {
    throw new Error(`${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): restore into an empty DATA_DIR, and move the old one aside yourself.`);
  }
  const started = performance.now();
  const unlock = lockOrExplain(dir, 'restore');
  try {
    const db = await PGlite.create(dir, { loadDataDir: new Blob([raw]) });
    try {
      await db.query('SELECT 1');
    } finally {
      await db.close();
    }
  } finally {
    unlock(); // also removes the backup's own lock file, restored with the rest
  }
  return { ms: Math.round(performance.now() - started) };
}
