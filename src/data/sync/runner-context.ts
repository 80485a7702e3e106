import type { PassageDB, SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import type { Clock, EngineTuning, SyncTransport } from './types';
import type { ScopeOwner } from './scope';

/** What the push, pull and reconcile runners share; built by the engine. */
export interface RunnerContext {
  db: PassageDB;
  transport: SyncTransport;
  clock: Clock;
  random: () => number;
  userId: string;
  tuning: EngineTuning;
  /** Issue #22: whose sites this tablet holds; null or absent: the whole academy, unfiltered. */
  scope?: ScopeOwner | null;
  /** What the engine learnt about the server across cycles: it has no `scopePull` (issue #22.5). */
  memo: { scopePull?: 'absent' };
  /** Told after each committed page of a pull (and when a first pull learns its total): issue #9.5. */
  progress?: (entity: EntityName, state: SyncStateRow) => void;
}

/**
 * Run `work` over `items` with at most `limit` in flight; results in input order. Every lane is
 * waited for, even when one throws: a cycle must not end (and the next one plan its ops) while a
 * request of it is still out. The first error is thrown once all lanes have stopped; after it, no
 * lane starts another item.
 */
export async function runLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const lane = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i]);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed) throw (failed as { error: unknown }).error;
  return results;
}
