import type { PassageDB, SyncStateRow } from '../db';
import type { EntityName } from '../types';
import type { Clock, EngineTuning, SyncTransport } from './types';

/** What the push, pull and reconcile runners share; built by the engine. */
export interface RunnerContext {
  db: PassageDB;
  transport: SyncTransport;
  clock: Clock;
  random: () => number;
  userId: string;
  tuning: EngineTuning;
  /** Told after each committed page of a pull (and when a first pull learns its total): issue #9.5. */
  progress?: (entity: EntityName, state: SyncStateRow) => void;
}

/** Run `work` over `items` with at most `limit` in flight; results in input order. */
export async function runLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
