import { freshDb } from '../data/fresh-db';
import { setDataContext } from '../../../src/data/context';
import { SyncEngine } from '../../../src/data/sync/engine';
import type { EngineTuning, LockManagerLike } from '../../../src/data/sync/types';
import type { ScopeOwner } from '../../../src/data/sync/scope';
import type { PassageDB } from '../../../src/data/db';
import { FakeClock, flush } from './fake-clock';
import { ScriptedTransport } from './scripted-transport';
import { readSyncStatus } from '../../../src/data/queries/sync-status';

export interface Harness {
  db: PassageDB;
  transport: ScriptedTransport;
  clock: FakeClock;
  engine: SyncEngine;
  /** Let the engine finish whatever it is doing. */
  settle(): Promise<void>;
  /** Let promises run without waiting for the engine (when a call is held). */
  flush(): Promise<void>;
  /** Flush until `n` calls are held by the transport (fails after many rounds). */
  held(n: number): Promise<void>;
  /** Advance the fake clock and settle. */
  advance(ms: number): Promise<void>;
  status: typeof readSyncStatus;
}

/**
 * An engine over a fresh fake-indexeddb database, a scripted transport and a fake clock, wired
 * into the data context so commands nudge it. Starts offline=false; call `engine.start()`.
 */
export function makeHarness(
  opts: { userId?: string; tuning?: Partial<EngineTuning>; lock?: LockManagerLike; transport?: ScriptedTransport; scope?: ScopeOwner } = {},
): Harness {
  const userId = opts.userId ?? 'user-1';
  const clock = new FakeClock();
  const db = freshDb({ userId, now: () => clock.now() });
  const transport = opts.transport ?? new ScriptedTransport();
  const engine = new SyncEngine({ db, transport, clock, userId, random: () => 0.5, tuning: opts.tuning, lock: opts.lock, scope: opts.scope });
  setDataContext({ sync: engine });
  const settle = async () => {
    await flush();
    await engine.idle();
    await flush();
  };
  const held = async (n: number) => {
    for (let i = 0; i < 200 && transport.heldCalls().length < n; i++) await flush();
    if (transport.heldCalls().length < n) throw new Error(`expected ${n} held calls, got ${transport.heldCalls().length}`);
  };
  return { db, transport, clock, engine, settle, flush, held, advance: (ms) => clock.advance(ms, settle), status: readSyncStatus };
}
