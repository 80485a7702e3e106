/**
 * One device for a test: its own database, its own data context (the signed-in user, a clock, a
 * uuid source, a platform client) and, given a transport, its own sync engine. A test with two
 * tablets makes two devices and passes each one's `data` to the commands it runs on it
 * (`createParticipant(a.data, …)`, `updateParticipant(b.data, …)`): nothing global is swapped.
 *
 *   const a = makeDevice({ userId: coach.id, transport: createPlatformTransport(client, coach.id) });
 *   await a.engine.start();
 *   await createParticipant(a.data, { first_name: 'Ana', last_name: 'Ruiz' });
 *   await a.settle();
 *
 * The database is a fresh fake-indexeddb PassageDB with a random data key (so everything runs
 * sealed, as on a tablet), unless `db` gives one (a database reopened by a test, or in component
 * tests the app's own, which their seeds write).
 */
import 'fake-indexeddb/auto';
import { PassageDB } from '../../src/data/db';
import { createDataContext, type DataContext } from '../../src/data/context';
import type { PlatformClientLike } from '../../src/data/platform-like';
import { SyncEngine } from '../../src/data/sync/engine';
import type { EngineOptions, SyncTransport } from '../../src/data/sync/types';
import { FakeClock, flush } from './fake-clock';

export interface DeviceOptions {
  /** Start of the database's name (a fresh name is made from it); ignored when `db` is given. */
  name?: string;
  /** A database to use instead of a fresh one. */
  db?: PassageDB;
  /** The signed-in user stamped on every op (S11); 'user-1' unless said, null signed out. */
  userId?: string | null;
  /**
   * The device's clock (S14): a FakeClock of its own unless devices share one. Its own starts at
   * noon UTC on 2026-01-15, so "today" is the 15th in every time zone from UTC−11 to UTC+11.
   */
  clock?: FakeClock;
  /** What the commands take as now; the clock's time unless said. */
  now?: () => number;
  /** The platform client of the online-only calls; none unless said. */
  client?: PlatformClientLike | null;
  /** With a transport, the device gets a sync engine over it (not started). */
  transport?: SyncTransport;
  /** The engine's other options (random defaults to 0.5: no jitter). */
  engine?: Partial<Omit<EngineOptions, 'db' | 'transport' | 'clock' | 'userId'>>;
  /**
   * Whether commands nudge the engine (S9, the data context's `sync`): yes by default; no when the
   * test runs each cycle itself (engine.runOnce) and a nudge would start one it did not ask for.
   */
  nudges?: boolean;
}

export interface Device {
  /** The data context: the first argument of every command, the value of a <DataProvider>. */
  data: DataContext;
  db: PassageDB;
  clock: FakeClock;
  engine: SyncEngine | null;
  /** Let the engine (when there is one) finish what it is doing, and pending promises run. */
  settle(): Promise<void>;
  /** Move the clock forward, settling after each timer it fires. */
  advance(ms: number): Promise<void>;
}

export interface SyncingDevice extends Device {
  engine: SyncEngine;
}

let made = 0;

export function makeDevice(options: DeviceOptions & { transport: SyncTransport }): SyncingDevice;
export function makeDevice(options?: DeviceOptions): Device;
export function makeDevice(options: DeviceOptions = {}): Device {
  const clock = options.clock ?? new FakeClock(Date.UTC(2026, 0, 15, 12));
  const db = options.db ?? new PassageDB(`${options.name ?? 'device'}-${process.pid}-${Date.now()}-${made++}`);
  const userId = options.userId === undefined ? 'user-1' : options.userId;
  // Real random uuids (the default): client_refs must be unique across the devices of one server (S3).
  const data = createDataContext({ db, userId, now: options.now ?? (() => clock.now()), client: options.client ?? null });
  let engine: SyncEngine | null = null;
  if (options.transport) {
    if (!userId) throw new Error('makeDevice: an engine needs a signed-in user (userId)');
    engine = new SyncEngine({ random: () => 0.5, ...options.engine, db, transport: options.transport, clock, userId });
    if (options.nudges !== false) data.sync = engine;
  }
  const settle = async () => {
    await flush();
    if (engine) {
      await engine.idle();
      await flush();
    }
  };
  return { data, db, clock, engine, settle, advance: (ms) => clock.advance(ms, settle) };
}

/**
 * The transport without its change stream (S18), for a test that drives every cycle itself
 * (engine.runOnce, a FakeClock one timer at a time). The stream starts a cycle in real time, outside
 * the test's steps: when it opens (the engine pulls once) and on every notice. In convergence, two
 * devices' cycles then overlapped (fresh seed 1215316163); in attendance-taps, a cycle that opened
 * while the tablet was offline held the roster's creates in flight, so an exception tapped then
 * was queued apart instead of merged into its create (31 queued, not 30; once, in a whole run).
 * The stream has tests of its own (S18: the engine's, the server's, live-updates in Chromium).
 */
export function withoutStream(t: SyncTransport): SyncTransport {
  const quiet = { ...t };
  delete quiet.openEvents;
  return quiet;
}
