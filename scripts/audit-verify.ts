/**
 * `npm run audit:verify` (issue #26): walks the audit trail's hash chain of the server's database —
 * DATABASE_URL when set, else the PGlite data directory DATA_DIR (default ./data) — and reports
 * "N events, chain intact" per app, or the first broken link (seq, id, what was expected and what
 * was found), exiting 1. A PGlite directory can only be read while no server holds it.
 */
import { existsSync } from 'node:fs';
import { type SqlClient } from '../server/store/sql-client';
import { openPostgres } from '../server/store/pg-client';
import { openPglite } from '../server/store/pglite-client';
import { verifyAuditChain } from '../server/store/audit-store';

async function open(): Promise<{ sql: SqlClient; where: string }> {
  const url = process.env.DATABASE_URL;
  if (url) return { sql: openPostgres(url, 1, 600_000, 600_000), where: 'DATABASE_URL' };
  const dir = process.env.DATA_DIR || './data';
  if (!existsSync(dir)) throw new Error(`No data directory at ${dir} (set DATA_DIR, or DATABASE_URL for PostgreSQL).`);
  try {
    return { sql: await openPglite(dir, 600_000, 600_000), where: dir };
  } catch (err) {
    throw new Error(`Cannot open ${dir}: ${(err as Error).message}\nStop the server first: PGlite allows one process per data directory.`);
  }
}

async function main(): Promise<number> {
  const { sql, where } = await open();
  try {
    const exists = await sql.query<{ t: string | null }>(`SELECT to_regclass('audit_events')::text AS t`);
    if (!exists[0]?.t) {
      console.log(`${where}: no audit trail yet (the server has not started on this database since issue #26).`);
      return 0;
    }
    const reports = await verifyAuditChain(sql);
    if (reports.length === 0) console.log(`${where}: 0 events, chain intact`);
    let broken = false;
    for (const r of reports) {
      if (!r.broken) {
        console.log(`${r.app}: ${r.events.toLocaleString('en-US')} events, chain intact (head ${r.head})`);
        continue;
      }
      broken = true;
      const b = r.broken;
      console.log(`${r.app}: chain BROKEN at seq ${b.seq}${b.id ? ` (id ${b.id})` : ''}: ${b.problem}`);
      console.log(`  expected: ${b.expected}`);
      console.log(`  found:    ${b.found}`);
      console.log(`  ${r.events.toLocaleString('en-US')} events before it are intact.`);
    }
    return broken ? 1 : 0;
  } finally {
    await sql.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error((err as Error).message);
    process.exit(2);
  },
);
