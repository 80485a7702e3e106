// PGlite in its own thread (see openPglite in pglite-client.ts). PGlite runs PostgreSQL compiled to
// WebAssembly synchronously: a statement that never ends would freeze the thread that runs it, and
// PostgreSQL's statement_timeout cannot fire inside WebAssembly (tested: SET statement_timeout = '1s'
// does not stop a 25 s query). Here a runaway statement only freezes this thread; the server thread
// times it out and terminates it. Plain JavaScript so the thread starts without a TypeScript loader.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const describe = (err) => ({
  message: err instanceof Error ? err.message : String(err),
  code: typeof err?.code === 'string' ? err.code : undefined,
});

let db;
/** The unlisten function of each channel this thread LISTENs on (issue #24.2). */
const listening = new Map();
/**
 * A new database starts from `workerData.template` when one is given (a dump of a migrated empty
 * database, PGLITE_TEMPLATE: the tests' one, test/support/pglite-template.ts): loading it takes
 * 0.4 s where initdb takes 1.5 s of CPU. A directory that already holds a database opens as is.
 */
function freshFrom(dataDir, template) {
  if (!template) return undefined;
  const fresh = dataDir.startsWith('memory://') || !existsSync(join(dataDir, 'PG_VERSION'));
  return fresh ? new Blob([readFileSync(template)]) : undefined;
}

try {
  const loadDataDir = freshFrom(workerData.dataDir, workerData.template);
  // The process's one compiled module (pglite-client.ts pgliteModule), so this thread does not compile it again.
  db = await PGlite.create(workerData.dataDir, { pgliteWasmModule: workerData.wasmModule, ...(loadDataDir ? { loadDataDir } : {}) });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: describe(err) });
}

parentPort.on('message', async ({ id, op, sql, params }) => {
  try {
    if (op === 'listen') {
      // The channel name is `sql` (checked by the server thread). Notices come after the COMMIT
      // that sent them and go to the server thread as messages without an id.
      if (!listening.has(sql)) listening.set(sql, await db.listen(sql, (payload) => parentPort.postMessage({ notice: { channel: sql, payload } })));
      parentPort.postMessage({ id, rows: [] });
      return;
    }
    if (op === 'unlisten') {
      await listening.get(sql)?.();
      listening.delete(sql);
      parentPort.postMessage({ id, rows: [] });
      return;
    }
    if (op === 'close') {
      if (!db.closed) await db.close();
      parentPort.postMessage({ id, rows: [] });
      return;
    }
    const result = await db.query(sql, params);
    // PGlite sometimes loses an error raised deep inside PostgreSQL (seen with "regular expression
    // is too complex") and answers with no rows and no command tag. Every real answer has a command
    // tag, so an answer without one is a failure, never an empty result.
    if (result.command === undefined) {
      parentPort.postMessage({ id, error: { message: 'The embedded database failed on this statement', code: 'XX000' }, lost: true });
      return;
    }
    parentPort.postMessage({ id, rows: result.rows });
  } catch (err) {
    parentPort.postMessage({ id, error: describe(err) });
  }
});
