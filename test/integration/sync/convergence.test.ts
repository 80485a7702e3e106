import 'fake-indexeddb/auto';
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PassageDB } from '../../../src/data/db';
import type { DataContext } from '../../../src/data/context';
import type { SyncEngine } from '../../../src/data/sync/engine';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import type { SyncTransport } from '../../../src/data/sync/types';
import { seededRandom } from '../../../src/data/sync/backoff';
import { isTempId } from '../../../src/data/sync/references';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant, unenrollParticipant } from '../../../src/data/commands/enrollments';
import { makeDevice, withoutStream } from '../../support/device';
import { FakeClock, flush } from '../../support/fake-clock';
import { startSyncServer, type FaultKind, type SyncServer } from './sync-server';

/**
 * Seeded random convergence (design "Deterministic networks"): 3 devices of one coach, 300 random
 * operations each, random offline periods and 20% injected faults (a third of them "applied but
 * the answer was lost"), against the real server in-process. At the end, with everyone online
 * and syncing until quiet: every mirror equals the server, every intended record exists exactly
 * once (by client_ref), and every concurrent edit of one field was recorded as a conflict.
 *
 * Device syncs do not overlap in time here (the fake clock fires one timer, then waits for every
 * engine to be idle). They must not: the platform has no conditional update, so two devices whose
 * fetch-then-PUT of the same field interleave within one round trip cannot see each other, and
 * the later PUT wins without a conflict. See src/data/README.md "Known limits".
 */
/** Seeds that always run with OPS_PER_DEVICE (a seed that once failed is added here once fixed). */
const PINNED_SEEDS = [20261122];
const OPS_PER_DEVICE = 300;
/**
 * Exploration (as tldraw's sync fuzz does): N fresh random seeds per run, each printed in the test
 * name and on failure so it can be pinned. Small in `npm test` (2 seeds × 100 operations per
 * device, about 15 s); CONVERGENCE_RUNS=50 (and CONVERGENCE_OPS=300) explores more.
 */
const FRESH_RUNS = Number(process.env.CONVERGENCE_RUNS ?? 2);
const FRESH_OPS = Number(process.env.CONVERGENCE_OPS ?? 100);
/** CONVERGENCE_SEED reruns one seed as the fresh runs ran it (CONVERGENCE_OPS operations per device). */
const FRESH_SEEDS = [
  ...(process.env.CONVERGENCE_SEED ? [Number(process.env.CONVERGENCE_SEED)] : []),
  ...Array.from({ length: FRESH_RUNS }, () => randomInt(1, 2 ** 31)),
];
const FAULT_RATE = 0.2;
/**
 * Time in the runs is the fake clock's; this real-time limit only catches a hang. The 300-operation
 * run takes about 45 s alone, and passed 120 s once in a whole `npm test` with both cores full.
 */
const HANG_GUARD_MS = 300_000;
const FIELDS = ['phone', 'case_manager', 'address'] as const;

/** One of the coach's tablets (test/support/device.ts), and what the run does to its network. */
interface Device {
  name: string;
  data: DataContext;
  db: PassageDB;
  engine: SyncEngine;
  offline: boolean;
  faultsOn: boolean;
}

interface Edit {
  device: number;
  id: string;
  field: string;
  base: unknown;
  value: string;
}

/** Rows that differ between a mirror and the server, by id (key order does not matter). */
function differences(local: object[], remote: object[]): string[] {
  type R = Record<string, unknown>;
  const canon = (r: Record<string, unknown> | undefined) => (r ? JSON.stringify(Object.keys(r).sort().map((k) => [k, r[k]])) : 'missing');
  const l = new Map((local as R[]).map((r) => [String(r.id), r]));
  const s = new Map((remote as R[]).map((r) => [String(r.id), r]));
  const out: string[] = [];
  for (const id of new Set([...l.keys(), ...s.keys()])) {
    if (canon(l.get(id)) !== canon(s.get(id))) out.push(`${id}: local ${canon(l.get(id))} server ${canon(s.get(id))}`);
  }
  return out.slice(0, 5);
}

describe('convergence', () => {
  it.each(PINNED_SEEDS)(`3 devices × ${OPS_PER_DEVICE} random operations with faults converge (pinned seed %i)`, (seed) => converge(seed, OPS_PER_DEVICE), HANG_GUARD_MS);

  // Issue #22: the coach's tablets hold the site of their cohort only; enrolments into another
  // site's cohort take participants off them. Each mirror must equal the server within its scope.
  // Both ways a scope is pulled: the plain API's filtered, chunked requests, and the server's
  // `scopePull` function (one request for the whole scope, issue #22.5).
  it.each(PINNED_SEEDS)(`3 scoped devices × ${FRESH_OPS} random operations with faults converge, plain API (pinned seed %i)`, (seed) => converge(seed, FRESH_OPS, 'plain'), HANG_GUARD_MS);
  it.each(PINNED_SEEDS)(`3 scoped devices × ${FRESH_OPS} random operations with faults converge, scopePull (pinned seed %i)`, (seed) => converge(seed, FRESH_OPS, 'fast'), HANG_GUARD_MS);

  it.each(FRESH_SEEDS.slice(0, Math.max(1, FRESH_SEEDS.length / 2)))(`3 scoped devices × ${FRESH_OPS} random operations with faults converge (fresh seed %i)`, async (seed) => {
    try {
      await converge(seed, FRESH_OPS, seed % 2 ? 'plain' : 'fast');
    } catch (err) {
      console.error(`Scoped convergence failed for fresh seed ${seed}: rerun with CONVERGENCE_SEED=${seed}, then pin it in PINNED_SEEDS.`);
      throw err;
    }
  }, HANG_GUARD_MS);

  it.each(FRESH_SEEDS)(`3 devices × ${FRESH_OPS} random operations with faults converge (fresh seed %i)`, async (seed) => {
    try {
      await converge(seed, FRESH_OPS);
    } catch (err) {
      console.error(`Convergence failed for fresh seed ${seed}: rerun with CONVERGENCE_SEED=${seed}, then pin it in PINNED_SEEDS.`);
      throw err;
    }
  }, HANG_GUARD_MS);
});

/** The transport's writes in the request log, by record id (shown for a missed conflict). */
function logged(device: number, t: SyncTransport, log: string[], at: () => number): SyncTransport {
  const note = (what: string, p: Promise<unknown>) =>
    p.then(
      (r) => {
        log.push(`d${device} ${what} → ok @${at()}ms`);
        return r;
      },
      (e: unknown) => {
        log.push(`d${device} ${what} → ${String((e as Error)?.message ?? e).slice(0, 60)} @${at()}ms`);
        throw e;
      },
    );
  return {
    ...t,
    update: (entity, id, data) => note(`PUT ${entity}/${id} ${JSON.stringify(data)}`, t.update(entity, id, data)) as ReturnType<SyncTransport['update']>,
    bulkUpdate: (entity, rows) =>
      note(`bulk PUT ${entity} ${rows.map((r) => `${String(r.id)} ${JSON.stringify({ ...r, id: undefined })}`).join(' | ')}`, t.bulkUpdate(entity, rows)) as ReturnType<SyncTransport['bulkUpdate']>,
    create: (entity, body) =>
      note(`POST ${entity} ${JSON.stringify(body)}`, t.create(entity, body)).then((r) => {
        log.push(`d${device} created ${JSON.stringify(r)} @${at()}ms`);
        return r;
      }) as ReturnType<SyncTransport['create']>,
    bulkCreate: (entity, bodies) =>
      note(`bulk POST ${entity} ${bodies.map((b) => JSON.stringify(b)).join(' | ')}`, t.bulkCreate(entity, bodies)).then((rows) => {
        log.push(`d${device} created ${(rows as unknown[]).map((r) => JSON.stringify(r)).join(' | ')} @${at()}ms`);
        return rows;
      }) as ReturnType<SyncTransport['bulkCreate']>,
    filter: (...args) =>
      t.filter(...args).then((rows) => {
        log.push(`d${device} filter ${args[0]} ${JSON.stringify(args[1]).slice(0, 80)} | ${rows.map((r) => JSON.stringify(r)).join(' | ')} @${at()}ms`);
        return rows;
      }),
    fetchMany: (entity, ids) =>
      t.fetchMany(entity, ids).then((rows) => {
        log.push(`d${device} fetch ${entity} ${rows.map((r) => JSON.stringify(r)).join(' | ')} @${at()}ms`);
        return rows;
      }),
  };
}

/** The transport as the plain platform has it: no `scopePull` function. */
function withoutScopePull(t: SyncTransport, strip: boolean): SyncTransport {
  if (!strip) return t;
  const plain = { ...t };
  delete plain.pullScope;
  return plain;
}

/** scoped: the coach's tablets hold their sites, pulled through the plain API or the `scopePull` function. */
type Scoping = false | 'plain' | 'fast';

/**
 * One run on its own server: random operations and faults from `seed`, then every check. The
 * devices run without their change stream (S18; withoutStream in test/support/device.ts says why).
 */
async function converge(seed: number, opsPerDevice: number, scoped: Scoping = false): Promise<void> {
  const server = await startSyncServer();
  try {
    await exercise(server, seed, opsPerDevice, scoped);
  } finally {
    await server.close();
  }
}

async function exercise(server: SyncServer, SEED: number, OPS_PER_DEVICE: number, scoped: Scoping): Promise<void> {
  {
    const random = seededRandom(SEED);
    const pick = <T,>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
    const clock = new FakeClock(Date.now());
    const admin = server.client('admin');
    const program = await admin.entities('Program').create({ program_name: 'Convergence', active: true });
    const site = await admin.entities('Site').create({ site_name: 'Convergence site', active: true });
    // Scoped: the coach leads CV-1; CV-2 is another coach's, at a site their tablets do not hold.
    const elsewhere = scoped ? await admin.entities('Site').create({ site_name: 'Another site', active: true }) : site;
    const cohorts = await Promise.all(
      [1, 2].map((i) =>
        admin.entities('Cohort').create({
          program_id: program.id,
          site_id: i === 1 ? site.id : elsewhere.id,
          cohort_code: `CV-${i}`,
          status: 'active',
          lead_coach_email: i === 1 ? 'coach@example.org' : 'other@example.org',
        }),
      ),
    );
    const requestLog: string[] = [];
    const t0 = clock.now();
    const faultLog: Record<FaultKind, number> = { none: 0, offline: 0, 'drop-response': 0, 'server-error': 0, timeout: 0 };

    const devices: Device[] = [0, 1, 2].map((i) => {
      const dev = { name: `device-${i}`, offline: false, faultsOn: true } as Device;
      const faultRandom = seededRandom(SEED + i + 1);
      const faults = (req: Request): FaultKind => {
        let f: FaultKind = 'none';
        requestLog.push(`d${i} ${req.method} ${decodeURIComponent(req.url).split("/entities/")[1]?.slice(0, 160)} @${clock.now() - t0}ms`);
        if (dev.offline) f = 'offline';
        else if (dev.faultsOn && faultRandom() < FAULT_RATE) f = (['drop-response', 'server-error', 'timeout'] as const)[Math.floor(faultRandom() * 3)];
        faultLog[f]++;
        requestLog[requestLog.length - 1] += ` ${f}`;
        return f;
      };
      const { data, db, engine } = makeDevice({
        name: `convergence-${SEED}-${scoped || 'whole'}-${i}`,
        userId: server.coach.id,
        clock,
        transport: logged(i, withoutStream(withoutScopePull(createPlatformTransport(server.client('coach', faults), server.coach.id), scoped !== 'fast')), requestLog, () => clock.now() - t0),
        engine: {
          random: seededRandom(SEED * 7 + i),
          entities: scoped ? ['Site', 'Cohort', 'Participant', 'Enrollment'] : ['Cohort', 'Participant', 'Enrollment'],
          scope: scoped ? { email: 'coach@example.org', everySite: false } : null,
        },
      });
      return Object.assign(dev, { data, db, engine });
    });
    const settleAll = async () => {
      await flush();
      await Promise.all(devices.map((d) => d.engine.idle()));
    };

    for (const d of devices) await d.engine.start();
    await settleAll();

    const created = { participants: [] as string[], enrollments: [] as string[] };
    /** Participants each device created or changed (by client_ref or id): they stay on it while unenrolled. */
    const touched = devices.map(() => new Set<string>());
    const edits: Edit[] = [];
    let token = 0;
    const edit = async (i: number, id: string, field: string) => {
      const row = await devices[i].db.participants.get(id);
      if (!row) return;
      const value = `${field}-${++token}-d${i}`;
      edits.push({ device: i, id, field, base: (row as unknown as Record<string, unknown>)[field] ?? null, value });
      requestLog.push(`d${i} edit ${id} ${field}=${value} (was ${JSON.stringify((row as unknown as Record<string, unknown>)[field] ?? null)}) @${clock.now() - t0}ms`);
      await updateParticipant(devices[i].data, id, { [field]: value });
      touched[i].add(id);
    };

    for (let step = 0; step < OPS_PER_DEVICE * 3; step++) {
      const i = step % 3;
      const d = devices[i];
      const roll = random();
      const participants = await d.db.participants.toArray();
      if (roll < 0.2 || participants.length === 0) {
        const p = await createParticipant(d.data, { first_name: `P${++token}`, last_name: d.name });
        created.participants.push(p.client_ref!);
        touched[i].add(p.client_ref!);
      } else if (roll < 0.45) {
        await edit(i, pick(participants).id, pick([...FIELDS]));
      } else if (roll < 0.6) {
        const p = pick(participants);
        const cohort = pick(cohorts);
        const active = (await d.db.enrollments.where('participant_id').equals(p.id).toArray()).filter((e) => e.enrollment_status === 'active');
        if (!active.some((e) => e.cohort_id === cohort.id)) {
          const e = await enrollParticipant(d.data, { participant_id: p.id, cohort_id: cohort.id });
          created.enrollments.push(e.client_ref!);
        }
      } else if (roll < 0.7) {
        const active = await d.db.enrollments.where('enrollment_status').equals('active').toArray();
        if (active.length) await unenrollParticipant(d.data, pick(active).id);
      } else if (roll < 0.8) {
        // The same field on two devices, each from what it has (a true concurrent edit when
        // neither has seen the other's).
        const j = (i + 1 + Math.floor(random() * 2)) % 3;
        const shared = participants.filter((p) => !isTempId(p.id));
        const p = shared.length ? pick(shared) : null;
        if (p && (await devices[j].db.participants.get(p.id))) {
          const field = pick([...FIELDS]);
          await edit(i, p.id, field);
          await edit(j, p.id, field);
        }
      } else if (roll < 0.9) {
        d.offline = !d.offline;
        if (!d.offline) d.engine.connectionChanged(true);
        await settleAll();
      } else {
        await clock.advance(Math.floor(random() * 5_000), settleAll);
      }
      await clock.advance(Math.floor(random() * 400), settleAll);
    }

    // Everyone online, no more faults: sync until quiet.
    for (const d of devices) {
      d.offline = false;
      d.faultsOn = false;
    }
    for (let round = 0; round < 20; round++) {
      for (const d of devices) {
        d.engine.syncNow();
        await settleAll();
      }
      await clock.advance(2_000, settleAll);
      const queued = await Promise.all(devices.map((d) => d.db.outbox.count()));
      if (queued.every((q) => q === 0) && round >= 2) break;
    }
    // Full pulls after the last push anywhere, until no mirror changes (at least two when scoped:
    // a pin released by an enrollment that arrived in the last pull lets its rows go in the next
    // cycle). Quiet means the mirrors stopped moving, not a count of cycles.
    const mirrorOf = async (d: Device) => JSON.stringify([await d.db.participants.toArray(), await d.db.enrollments.toArray(), await d.db.pins.toArray()]);
    for (let round = 0; round < 6; round++) {
      const before = await Promise.all(devices.map(mirrorOf));
      for (const d of devices) await d.engine.runOnce();
      const after = await Promise.all(devices.map(mirrorOf));
      if (round >= (scoped ? 1 : 0) && after.every((m, k) => m === before[k])) break;
    }

    const serverParticipants = await server.rows('Participant');
    const serverEnrollments = (await server.rows('Enrollment')).filter((e) => cohorts.some((c) => c.id === e.cohort_id));
    const byRef = (rows: Array<Record<string, unknown>>) => {
      const counts = new Map<string, number>();
      for (const r of rows) if (typeof r.client_ref === 'string') counts.set(r.client_ref, (counts.get(r.client_ref) ?? 0) + 1);
      return counts;
    };

    // Nothing missing, nothing duplicated.
    const pCounts = byRef(serverParticipants);
    const eCounts = byRef(serverEnrollments);
    expect(created.participants.filter((ref) => pCounts.get(ref) !== 1)).toEqual([]);
    expect(created.enrollments.filter((ref) => eCounts.get(ref) !== 1)).toEqual([]);

    // Every mirror equals the server (within its scope: the participants enrolled in CV-1, and
    // those this device created or changed that have no enrollment anywhere).
    for (const [i, d] of devices.entries()) {
      expect(await d.db.outbox.toArray()).toEqual([]);
      let participants = serverParticipants;
      let enrollments = serverEnrollments;
      const mine = new Set(await Promise.all([...touched[i]].map(async (id) => (await d.db.aliases.get(id))?.server_id ?? id)));
      if (scoped) {
        const enrolledAnywhere = new Set(serverEnrollments.map((e) => e.participant_id));
        const inScope = new Set(serverEnrollments.filter((e) => e.cohort_id === cohorts[0].id).map((e) => e.participant_id));
        participants = serverParticipants.filter(
          (p) => inScope.has(p.id) || (!enrolledAnywhere.has(p.id) && (mine.has(p.id) || mine.has(String(p.client_ref)))),
        );
        enrollments = serverEnrollments.filter((e) => e.cohort_id === cohorts[0].id);
      }
      const localParticipants = await d.db.participants.toArray();
      const localEnrollments = await d.db.enrollments.toArray();
      const apart = [...differences(localParticipants, participants), ...differences(localEnrollments, enrollments)];
      if (apart.length) {
        // What the device and the server hold of each record that differs, and the requests about it.
        for (const line of apart) {
          const rid = line.split(':')[0];
          const relatedEnrollments = serverEnrollments.filter((e) => e.participant_id === rid || e.id === rid);
          const keys = [rid, ...relatedEnrollments.map((e) => String(e.id)), ...relatedEnrollments.map((e) => String(e.participant_id))];
          const about = (part: string) => keys.some((k) => part.includes(k));
          console.log(`APART d${i} ${rid} (touched here: ${mine.has(rid)})`);
          console.log(' server enrollments', JSON.stringify(relatedEnrollments));
          console.log(' local enrollments', JSON.stringify(localEnrollments.filter((e) => keys.includes(String(e.participant_id)) || keys.includes(String(e.id)))));
          console.log(' pins', JSON.stringify(await d.db.pins.toArray()));
          console.log(' aliases to it', JSON.stringify((await d.db.aliases.toArray()).filter((a) => a.server_id === rid)));
          console.log(' conflicts', JSON.stringify((await d.db.conflicts.toArray()).filter((c) => c.record_id === rid)));
          console.log(' covered keys', JSON.stringify((await d.db.syncState.toArray()).map((st) => [st.entity, (st.scope_keys ?? []).filter((k) => k.includes(rid))])));
          console.log(requestLog.filter(about).map((l) => l.split(' | ').filter((part, k) => k === 0 || about(part)).join(' | ')).join('\n'));
        }
      }
      expect(differences(localParticipants, participants)).toEqual([]);
      expect(differences(localEnrollments, enrollments)).toEqual([]);
    }

    // Every concurrent same-field edit (two devices, one base, different values) is a conflict
    // recorded, naming one of the two values. Usually on one of the two devices; but a base can
    // come back (A → B → A: a third device's conflict took its local A over B), and then the edit
    // made on the returned A is not concurrent with B: the conflict that saved B is the third
    // device's (fresh seed 1998846584: d2 wrote B on base A, d0's resent A took over it and
    // recorded B, d1 then edited the A it read).
    const serverIdOf = async (dev: number, id: string) => (await devices[dev].db.aliases.get(id))?.server_id ?? id;
    const resolved = await Promise.all(edits.map(async (e) => ({ ...e, id: await serverIdOf(e.device, e.id) })));
    const conflictKeys = new Map<number, Set<string>>();
    /** `record/field` → the values every device's conflicts on it name (local and server). */
    const conflictValues = new Map<string, Set<unknown>>();
    for (const [i, d] of devices.entries()) {
      const conflicts = await d.db.conflicts.toArray();
      conflictKeys.set(i, new Set(conflicts.map((c) => `${c.record_id}/${c.field}`)));
      for (const c of conflicts) {
        const key = `${c.record_id}/${c.field}`;
        const values = conflictValues.get(key) ?? new Set<unknown>();
        values.add(c.local_value).add(c.server_value);
        conflictValues.set(key, values);
      }
    }
    // No one is asked to choose between two of their own edits (S4): every edited value carries its
    // device's tag, so a conflict on device i naming a server value of device i was its own write
    // (an attempt whose answer was lost: fresh seed 1699334138 under load).
    const ownConflicts = (await Promise.all(devices.map((d) => d.db.conflicts.toArray()))).flatMap((list, i) =>
      list.filter((c) => c.kind === 'field' && typeof c.server_value === 'string' && c.server_value.endsWith(`-d${i}`)).map((c) => `d${i} ${c.record_id}/${c.field}: ${c.local_value} vs ${c.server_value}`),
    );
    expect(ownConflicts).toEqual([]);
    const missed: string[] = [];
    let pairs = 0;
    for (let a = 0; a < resolved.length; a++) {
      for (let b = a + 1; b < resolved.length; b++) {
        const x = resolved[a], y = resolved[b];
        if (x.device === y.device || x.id !== y.id || x.field !== y.field || x.value === y.value) continue;
        if (JSON.stringify(x.base) !== JSON.stringify(y.base)) continue;
        pairs++;
        const key = `${x.id}/${x.field}`;
        const onEither = conflictKeys.get(x.device)!.has(key) || conflictKeys.get(y.device)!.has(key);
        const named = conflictValues.get(key);
        if (!onEither && !(named?.has(x.value) || named?.has(y.value))) missed.push(`${key} ${x.value} vs ${y.value}`);
      }
    }
    if (missed.length) {
      for (const m of missed) {
        const [rid, field] = m.split(' ')[0].split('/');
        console.log('MISSED', m, JSON.stringify(resolved.filter((e) => e.id === rid && e.field === field)));
        for (const [i, d] of devices.entries()) console.log(' conflicts d' + i, JSON.stringify((await d.db.conflicts.toArray()).filter((c) => c.record_id === rid)));
        console.log(' server', JSON.stringify(serverParticipants.find((p) => p.id === rid)));
        const ref = String(serverParticipants.find((p) => p.id === rid)?.client_ref ?? rid);
        const temps = (await Promise.all(devices.map((d) => d.db.aliases.where('server_id').equals(rid).primaryKeys()))).flat().map(String);
        const about = (part: string) => [rid, ref, ...temps].some((k) => part.includes(k));
        console.log(requestLog.filter(about).map((l) => l.split(' | ').filter((part, k) => k === 0 || about(part)).join(' | ')).join('\n'));
      }
    }
    expect(missed).toEqual([]);
    // The run must have exercised concurrent edits at all (about one pair per 10 operations).
    // Scoped, fewer participants are shared (one enrolled elsewhere leaves the tablets), and how
    // many edits overlap depends on when each device's sync cycles run: fresh seed 1275683803 made
    // 10 pairs alone and 2 under a whole `npm test`'s load, so a scoped run needs one.
    expect(pairs).toBeGreaterThan(scoped ? 0 : OPS_PER_DEVICE / 30);
    console.log(
      `convergence${scoped ? ` (scoped, ${scoped})` : ''} seed ${SEED}: ${serverParticipants.length} participants, ${serverEnrollments.length} enrollments, ` +
        `${edits.length} edits, ${pairs} concurrent pairs, faults ${JSON.stringify(faultLog)}`,
    );
    for (const d of devices) await d.engine.stop();
  }
}
