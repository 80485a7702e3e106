/**
 * `npm run restore -- <file>`: a backup made by `npm run backup` into an empty DATA_DIR (default
 * ./data), with no server running on it (server/store/backup.ts). With DATABASE_URL, use
 * pg_restore (docs/deploy.md).
 */
import { resolve } from 'node:path';
import { restoreDataDir } from '../server/store/backup';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('Usage: npm run restore -- <file>   (into an empty DATA_DIR, default ./data)');
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: this server keeps its data in PostgreSQL. Restore it with pg_restore (docs/deploy.md).');
  process.exit(2);
}
const dataDir = resolve(process.env.DATA_DIR || './data');
try {
  const done = await restoreDataDir(file, dataDir);
  console.log(`Restored ${resolve(file)} into ${dataDir} (${done.ms} ms). Start the server with DATA_DIR=${dataDir}.`);
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exit(1);
}
