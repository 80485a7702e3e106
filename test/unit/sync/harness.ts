import 'fake-indexeddb/auto';
import type { DataContext } from '../../../src/data/context';
import type { SyncEngine } from '../../../src/data/sync/engine';
import type { EngineTuning, LockManagerLike } from '../../../src/data/sync/types';
import type { ScopeOwner } from '../../../src/data/sync/scope';
import type { PassageDB } from '../../../src/data/db';
import { readSyncStatus, type SyncStatus } from '../../../src/data/queries/sync-status';
import { makeDevice } from '../../support/device';
import { FakeClock, flush } from '../../support/fake-clock';
import { ScriptedTransport } from '../../support/scripted-transport';

export interface Harness {
  /** The device's data context: commands run on it and nudge its engine. */
  data: DataContext;
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
  status(): Promise<SyncStatus>;
}

/**
 * An engine over a fresh fake-indexeddb database, a scripted transport and a fake clock: one
 * device (test/support/device.ts) whose commands nudge the engine. Starts offline=false; call
 * `engine.start()`.
 */
export function makeHarness(
  opts: { userId?: string; tuning?: Partial<EngineTuning>; lock?: LockManagerLike; transport?: ScriptedTransport; scope?: ScopeOwner } = {},
): Harness {
  const transport = opts.transport ?? new ScriptedTransport();
  const device = makeDevice({
    userId: opts.userId ?? 'user-1',
    clock: new FakeClock(),
    transport,
    engine: { tuning: opts.tuning, lock: opts.lock, scope: opts.scope },
  });
  const held = async (n: number) => {
    for (let i = 0; i < 200 && transport.heldCalls().length < n; i++) await flush();
    if (transport.heldCalls().length < n) throw new Error(`expected ${n} held calls, got ${transport.heldCalls().length}`);
  };
  const { data, db, clock, engine, settle, advance } = device;
  return { data, db, transport, clock, engine, settle, flush, held, advance, status: () => readSyncStatus(data) };
}
