/**
 * One PGlite per data directory: a second server (or a second store in this process) opening the
 * same directory would corrupt it, because PGlite has no shared-memory locking of its own. The lock
 * is a file holding the owner's pid; a lock whose process is gone (crash, SIGKILL) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const LOCK_FILE = 'passage.lock';
/** Directories this process holds, so a pid reused after a container restart is not mistaken. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

/** Takes the directory's lock or throws; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  if (held.has(dir)) throw new Error(`The data directory ${dir} is already open in this process`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new Error(
        `The data directory ${dir} is in use by process ${owner}. PGlite allows one server per directory; ` +
          'stop the other server, or set DATABASE_URL to run several servers on PostgreSQL.',
      );
    }
    writeFileSync(file, String(process.pid)); // stale: its owner is gone
  }
  held.add(dir);
  return () => {
    if (!held.delete(dir)) return;
    rmSync(file, { force: true });
  };
}
