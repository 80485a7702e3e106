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
  /**
   * What the engine learnt about the server across cycles: it has no `scopePull` (issue #22.5), no
   * `changeFeed` (issue #24.1).
   */
  memo: { scopePull?: 'absent'; changeFeed?: 'absent' };
  /** Told after each committed page of a pull (and when a first pull learns its total): issue #9.5. */
  progress?: (entity: EntityName, state: SyncStateRow) => void;
}
