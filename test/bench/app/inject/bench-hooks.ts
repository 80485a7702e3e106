/**
 * Evaluated in the signed-in app page (bundled by ../inject-bundle.ts): the app's own data layer,
 * as a second Dexie connection to the same database, so the bench can queue 1,000 ops with the
 * real command code (1,000 form submissions through the UI would measure typing, not sync) and
 * read the mirror and outbox without guessing their format.
 */
import { createParticipant } from '../../../../src/data/commands/participants';
import { createDataContext } from '../../../../src/data/context';
import Dexie from 'dexie';
import { db as appDb, PassageDB, TABLE_OF, V1_MIRROR_STORES } from '../../../../src/data/db';
import { applyPulledPage, inPageTables } from '../../../../src/data/sync/mirror-writes';
import { SITE_CHOICE_KEY, TABLET_SCOPE_KEY } from '../../../../src/data/sync/scope';
import { readVault } from '../../../../src/data/vault/device-vault';
import { newDataKey, unwrapWithPin, wrapWithPin } from '../../../../src/data/vault/keys';
import { placeOf } from '../../../../src/data/vault/cipher';
import { KeyRing } from '../../../../src/data/vault/key-ring';
import { sealingMiddleware } from '../../../../src/data/vault/middleware';
import { openRow, sealRow } from '../../../../src/data/vault/rows';
import { CLEAR_FIELDS, SEALED_FIELD } from '../../../../src/data/vault/policy';
import type { EntityName } from '../../../../shared/entities';

/** The first row of an object store as IndexedDB holds it (below every Dexie middleware). */
async function rawFirstRow(dbName: string, store: string): Promise<Record<string, unknown> | null> {
  const idb = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open(dbName);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  try {
    return await new Promise((resolve, reject) => {
      const r = idb.transaction(store).objectStore(store).openCursor();
      r.onsuccess = () => resolve((r.result?.value as Record<string, unknown> | undefined) ?? null);
      r.onerror = () => reject(r.error);
    });
  } finally {
    idb.close();
  }
}

/** The app's Dexie middleware that seals personal fields (src/data/vault/middleware.ts). */
const SEALING_MIDDLEWARE = { stack: 'dbcore', name: 'PassageSealing' } as const;

/** This copy's data context: its own connection to the app's database, signed out, no engine. */
const data = createDataContext({ db: appDb });

const hooks = {
  /**
   * Issue #14: this copy of the data layer is a second connection to the app's database with a
   * key ring of its own, locked; the sealed rows need the device's data key. It is unwrapped here
   * the way the app's Unlock does it, from the vault record and the PIN (Argon2id), and kept in this
   * copy's memory only. Returns the ms it took (0 when already unlocked).
   */
  async unlock(pin: string): Promise<number> {
    const db = data.db;
    if (db.keys.unlocked) return 0;
    const t0 = performance.now();
    const record = await readVault(db);
    if (!record?.pin) throw new Error('bench hooks: no PIN-sealed key on this device (no PIN set yet?)');
    const key = await unwrapWithPin(record.pin, pin);
    if (!key) throw new Error('bench hooks: the PIN does not open this device');
    db.keys.set(key);
    return performance.now() - t0;
  },
  /** Queues `n` participant creates for `userId` (S11: ops carry the signed-in user). */
  async queueCreates(userId: string, n: number, tag: string): Promise<void> {
    // No engine in this copy of the data layer: the app's own engine pushes them (sync: null).
    Object.assign(data, { userId, sync: null });
    for (let i = 0; i < n; i++) {
      await createParticipant(data, {
        first_name: 'Queued',
        last_name: `${tag} ${i + 1}`,
        custody_status: 'in-custody',
        program_status: 'active',
        enrollment_date: new Date().toISOString().slice(0, 10),
      } as Parameters<typeof createParticipant>[1]);
    }
  },
  outboxCount: (): Promise<number> => data.db.outbox.count(),
  /** Rows per table of the local mirror (the facility link's first sync watches them fill). */
  async mirrorCounts(): Promise<Record<string, number>> {
    const db = data.db;
    const tables = ['programs', 'sites', 'users', 'cohorts', 'participants', 'enrollments', 'sessions', 'outcomes'];
    const counts = await Promise.all(tables.map((t) => db.table(t).count()));
    return Object.fromEntries(tables.map((t, i) => [t, counts[i]]));
  },
  /** Primary keys per mirror table (no row is read or opened: issue #22's scope rows count the stores). */
  async tableKeys(tables: string[]): Promise<Record<string, string[]>> {
    const db = data.db;
    const keys = await Promise.all(tables.map((t) => db.table(t).toCollection().primaryKeys() as Promise<string[]>));
    return Object.fromEntries(tables.map((t, i) => [t, keys[i]]));
  },
  /** How many of `ids` (per mirror table) the mirror does not hold yet (keys only). */
  async missing(ids: Record<string, string[]>): Promise<number> {
    const db = data.db;
    const counts = await Promise.all(
      Object.entries(ids).map(async ([t, want]) => {
        if (!want.length) return 0;
        const held = new Set((await db.table(t).where(':id').anyOf(want).primaryKeys()) as string[]);
        return want.filter((id) => !held.has(id)).length;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  },
  /** One Argon2id wrap of a fresh data key with `pin`: what Save PIN derives before the app opens (ms). */
  async pinWrapMs(pin: string): Promise<number> {
    const key = newDataKey();
    const t0 = performance.now();
    await wrapWithPin(key, pin);
    return performance.now() - t0;
  },
  /** Issue #22: this tablet's own intakes kept beyond the scope (pins with reason 'own'). */
  ownIntakes: (): Promise<number> => data.db.pins.filter((p) => p.reason === 'own').count(),
  /** Issue #22: the scope the engine derived last (meta 'tabletScope'). */
  async tabletScope(): Promise<unknown> {
    return (await data.db.meta.get(TABLET_SCOPE_KEY))?.value ?? null;
  },
  /** Issue #22: the person's site choice (meta 'siteChoice'), written as "Sites on this tablet" writes it. */
  async setSiteChoice(choice: { userId: string; added: string[]; removed: string[] }): Promise<void> {
    await data.db.meta.put({ key: SITE_CHOICE_KEY, value: choice });
  },
  /** Why a push did not finish: the outbox by state (and one error each), and the engine's status row. */
  async outboxReport(): Promise<{ states: Record<string, number>; errors: string[]; status: unknown }> {
    const db = data.db;
    const states: Record<string, number> = {};
    const errors = new Set<string>();
    for (const op of await db.outbox.toArray()) {
      states[op.state] = (states[op.state] ?? 0) + 1;
      if (op.last_error) errors.add(`${op.state}: ${op.last_error.status ?? '-'} ${op.last_error.message}`);
    }
    return { states, errors: [...errors].slice(0, 5), status: (await db.meta.get('syncStatus'))?.value ?? null };
  },
  /** Phone numbers of participants in the local mirror, by id. */
  async phones(ids: string[]): Promise<(string | null)[]> {
    const rows = await data.db.participants.bulkGet(ids);
    return rows.map((r) => (r?.phone as string | null | undefined) ?? null);
  },
  /**
   * The floor under the initial sync: the mirror's rows written into a scratch database with the
   * same schema (and, since issue #14, the same encryption: a PassageDB of its own random key) in
   * 5,000-row bulkPuts, nothing else (no network, no rebase, no live queries).
   * Issue #11.4, where the rest goes: page by page, alternating so load swings hit all alike, the
   * same rows also go (a) through the engine's own page write (applyPulledPage in its page
   * transaction, the syncState put, the status write after it) into a second scratch database,
   * (b) bulkPut into one with schema version 1's indexes (sealed too), and (issue #14.4) (c) the
   * engine's page write again into a PassageDB without the sealing middleware: (a) − (c) is
   * what sealing adds to a first sync's local writes.
   */
  async idbFloor(caps: Record<string, number> = {}): Promise<{ rows: number; ms: number; engineMs: number; plainEngineMs: number; v1Ms: number; sealedByTable: Record<string, number> }> {
    const source = data.db;
    const scratch = new PassageDB('passage-bench-floor');
    // Issue #14.4: the engine's page writes into a PassageDB of its own random key (encrypted, as
    // the app's) and the same into one whose sealing middleware is taken off before it opens.
    const engine = new PassageDB('passage-bench-engine');
    const plainEngine = new PassageDB('passage-bench-engine-plain');
    plainEngine.unuse(SEALING_MIDDLEWARE);
    const v1 = new Dexie('passage-bench-floor-v1');
    // Sealed like the app's database, so it differs from `scratch` by its indexes alone.
    v1.use(sealingMiddleware(KeyRing.withNewKey()));
    v1.version(1).stores(V1_MIRROR_STORES);
    const entityOf = new Map<string, EntityName>(Object.entries(TABLE_OF).map(([entity, table]) => [String(table), entity as EntityName]));
    try {
      const tables = ['programs', 'sites', 'users', 'cohorts', 'participants', 'enrollments', 'sessions', 'outcomes'];
      // `caps`: rows per table as the first sync wrote them (later steps add participants).
      const data = await Promise.all(tables.map((t) => (caps[t] !== undefined ? source.table(t).limit(caps[t]).toArray() : source.table(t).toArray())));
      let rows = 0;
      let ms = 0;
      let engineMs = 0;
      let plainEngineMs = 0;
      let v1Ms = 0;
      let pageNo = 0;
      const timed = async (work: () => Promise<unknown>) => {
        const t0 = performance.now();
        await work();
        return performance.now() - t0;
      };
      for (const [i, t] of tables.entries()) {
        const entity = entityOf.get(t)!;
        for (let k = 0; k < data[i].length; k += 5000) {
          const page = data[i].slice(k, k + 5000);
          ms += await timed(() => scratch.transaction('rw', scratch.table(t), () => scratch.table(t).bulkPut(page)));
          const enginePage = (db: PassageDB) => async () => {
            await inPageTables(db, entity, async () => {
              await applyPulledPage(db, entity, page, { fresh: true });
              await db.syncState.put({ entity, cursor: String(page[page.length - 1].updated_date), last_pulled_at: k, last_reconciled_at: null, first_rows: k + page.length });
            });
            await db.meta.put({ key: 'bench-status', value: { entity, rows: k + page.length } });
          };
          // Which of the two goes first alternates page by page (a GC or a checkpoint left by one
          // would otherwise always land on the same one).
          if (pageNo++ % 2 === 0) {
            engineMs += await timed(enginePage(engine));
            plainEngineMs += await timed(enginePage(plainEngine));
          } else {
            plainEngineMs += await timed(enginePage(plainEngine));
            engineMs += await timed(enginePage(engine));
          }
          v1Ms += await timed(() => v1.transaction('rw', v1.table(t), () => v1.table(t).bulkPut(page)));
        }
        rows += data[i].length;
      }
      // The two really differ: the encrypted copy holds sealed rows, the other the fields as they are.
      const sealedByTable: Record<string, number> = {};
      for (const t of Object.keys(CLEAR_FIELDS).filter((t) => tables.includes(t))) {
        const [enc, plain] = await Promise.all([rawFirstRow('passage-bench-engine', t), rawFirstRow('passage-bench-engine-plain', t)]);
        if (enc && !(SEALED_FIELD in enc)) throw new Error(`bench floor: ${t} in the encrypted copy is not sealed`);
        if (plain && SEALED_FIELD in plain) throw new Error(`bench floor: ${t} in the copy without the middleware is sealed`);
        sealedByTable[t] = enc ? await engine.table(t).count() : 0;
      }
      return { rows, ms, engineMs, plainEngineMs, v1Ms, sealedByTable };
    } finally {
      for (const db of [scratch, engine, plainEngine, v1]) {
        db.close();
        await db.delete();
      }
    }
  },
  /**
   * Issue #14.4: what sealing and opening cost per row, over the mirror's own rows of each sealed
   * table (sealRow/openRow of the app's middleware with a fresh key, after a warm-up), and one
   * Argon2id wrap and unwrap of a data key with `pin` (what Save PIN and Unlock do).
   */
  async cryptoCosts(pin: string): Promise<{ perRow: Record<string, { rows: number; sealUs: number; openUs: number }>; wrapMs: number; unwrapMs: number }> {
    const source = data.db;
    const key = newDataKey();
    const perRow: Record<string, { rows: number; sealUs: number; openUs: number }> = {};
    for (const t of ['participants', 'outcomes']) {
      const rows = (await source.table(t).toArray()) as Record<string, unknown>[];
      if (!rows.length) continue;
      const clear = CLEAR_FIELDS[t];
      const place = (row: Record<string, unknown>) => placeOf(t, row.id);
      for (const row of rows.slice(0, 500)) openRow(key, sealRow(key, clear, row, place(row)), place(row));
      let t0 = performance.now();
      const sealed = rows.map((row) => sealRow(key, clear, row, place(row)));
      const sealMs = performance.now() - t0;
      t0 = performance.now();
      for (const row of sealed) openRow(key, row, place(row));
      const openMs = performance.now() - t0;
      perRow[t] = { rows: rows.length, sealUs: (sealMs * 1000) / rows.length, openUs: (openMs * 1000) / rows.length };
    }
    let t0 = performance.now();
    const wrapped = await wrapWithPin(key, pin);
    const wrapMs = performance.now() - t0;
    t0 = performance.now();
    if (!(await unwrapWithPin(wrapped, pin))) throw new Error('bench hooks: PIN wrap round trip failed');
    const unwrapMs = performance.now() - t0;
    return { perRow, wrapMs, unwrapMs };
  },
};

(window as unknown as { __benchHooks: typeof hooks }).__benchHooks = hooks;
