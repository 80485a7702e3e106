/**
 * `npm run backup -- <file>`: the embedded database (DATA_DIR, default ./data) into one file, with
 * the server stopped (server/store/backup.ts). With DATABASE_URL, use pg_dump (docs/deploy.md).
 */
import { resolve } from 'node:path';
import { backupDataDir } from '../server/store/backup';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('Usage: npm run backup -- <file>   (e.g. passage-2026-11-26.tar.gz; DATA_DIR picks the data directory)');
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: this server keeps its data in PostgreSQL. Back it up with pg_dump -Fc (docs/deploy.md).');
  process.exit(2);
}
try {
  const done = await backupDataDir(resolve(process.env.DATA_DIR || './data'), file);
  console.log(`Backed up ${resolve(process.env.DATA_DIR || './data')} to ${done.file} (${(done.bytes / 1e6).toFixed(1)} MB, ${done.ms} ms).`);
  console.log('It holds password hashes, the server secret and every record: store it as safely as the server.');
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
