/**
 * Vitest global setup of the projects that open PGlite databases (integration, e2e): one dump of
 * an empty, migrated database, named by PGLITE_TEMPLATE for every store the run opens, in process
 * or in a child (server/store/pglite-worker.mjs loads it into a new database instead of running
 * initdb). A run opens about 70 PGlite databases in process and 30 in servers it starts; initdb
 * costs each 1.5 s of CPU, loading the dump 0.4 s (issue #27.5).
 *
 * The dump is made by the store's own createStore() (initdb, then every migration), so it is what
 * a new DATA_DIR holds after its first start. It is kept in .tmp/, named by a hash of the store's
 * sources and PGlite's version, so a change to the schema makes a new one. The migrations still
 * run on every open, over a database already at their version. One test opens a new database
 * without the template, so initdb stays covered (test/integration/store/pglite-durability.test.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const ROOT = resolve(import.meta.dirname, '../..');
const STORE = join(ROOT, 'server/store');

function templateName(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(STORE).sort()) {
    if (/\.(ts|mjs)$/.test(name)) hash.update(name).update(readFileSync(join(STORE, name)));
  }
  hash.update(JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  return `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`;
}

async function makeTemplate(file: string): Promise<void> {
  const { createStore } = await import('../../server/store/index');
  const dir = mkdtempSync(join(tmpdir(), 'passage-template-'));
  const saved = process.env.PGLITE_TEMPLATE;
  delete process.env.PGLITE_TEMPLATE;
  try {
    const store = await createStore({ dataDir: join(dir, 'data') });
    await store.close();
    const db = await PGlite.create(join(dir, 'data'));
    try {
      await db.query('CHECKPOINT');
      const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, dump);
      renameSync(partial, file); // two runs at once each write whole files; the last rename wins
    } finally {
      await db.close();
    }
  } finally {
    if (saved !== undefined) process.env.PGLITE_TEMPLATE = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function setup(): Promise<void> {
  if (process.env.PGLITE_TEMPLATE === '') return; // PGLITE_TEMPLATE= (empty): every store runs initdb
  const folder = join(ROOT, '.tmp');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, templateName());
  if (!existsSync(file)) await makeTemplate(file);
  process.env.PGLITE_TEMPLATE = file;
}
