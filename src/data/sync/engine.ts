/**
 * The sync engine: a thin shell that decides WHEN to run (S9), holds the leader lock (S10), and
 * runs a cycle (cycle-runner.ts: push → pull → reconcile → push). It reads time only from the
 * injected clock and talks only through the injected transport (S14).
 */
import type { EntityName } from '../../../shared/entities';
import { seededRandom } from './backoff';
import type { ErrorClass } from './classify-error';
import { isQuotaError, StorageFullError } from '../errors';
import { forgetOpBackoffs, releaseInflight, tryReleaseInflight } from './op-failures';
import type { WakeState } from './wake-plan';
import { firstSyncOf, readSyncStates } from './first-sync';
import { runCycle } from './cycle-runner';
import type { RunnerContext } from './runner-context';
import { observeReachability } from './observe-reachability';
import { EngineLive } from './engine-live';
import { EngineWake } from './engine-wake';
import { RetryHold } from './retry-hold';
import { StatusStore } from './status-store';
import type { SyncStateRow } from '../db';
import type { EngineOptions, LockManagerLike, PausedReason } from './types';
import { DEFAULT_TUNING, LOCK_NAME, PULL_ORDER } from './tuning';

export class SyncEngine {
  private readonly ctx: RunnerContext;
  private readonly status: StatusStore;
  private readonly entities: EntityName[];
  private readonly lock: LockManagerLike | null;
  private started = false;
  private leader = false;
  private releaseLock: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private debounce: unknown = null;
  /** S8/S9: the periodic/backoff timer and the probe (engine-wake.ts). */
  private readonly wake: EngineWake;
  private visible = true;
  private paused: PausedReason = null;
  /** S8: the backoff after cycles that could not finish (retry-hold.ts). */
  private readonly hold: RetryHold;
  private nextOpAt: number | null = null;
  private reachable = true;
  /** The browser said it has no network: its 'online' event will say when it is back (S9). */
  private browserOffline = false;
  /** Set by syncNow / connection back: the next cycle first forgets every backoff (S8). */
  private forgetBackoff = false;
  /** A cycle threw and could not put its in-flight ops back to pending: the next cycle does. */
  private strandedOps = false;
  /** Issue #9.5: each entity's syncState as last committed, the source of the first-sync status. */
  private syncStates = new Map<EntityName, SyncStateRow>();
  /** S18: the change stream's wiring (engine-live.ts); it has a stream when the transport does and this engine pulls. */
  private readonly live: EngineLive;

  constructor(options: EngineOptions) {
    this.ctx = {
      db: options.db,
      transport: observeReachability(options.transport, (reachable) => this.markReachable(reachable)),
      clock: options.clock,
      random: options.random ?? seededRandom(0x5eed),
      userId: options.userId,
      scope: options.scope ?? null,
      memo: {},
      tuning: { ...DEFAULT_TUNING, ...options.tuning },
      progress: (entity, state) => this.pullProgress(entity, state),
    };
    this.status = new StatusStore(options.db);
    this.entities = options.entities ?? PULL_ORDER;
    this.lock = options.lock ?? null;
    this.hold = new RetryHold(this.ctx.random, this.ctx.tuning.periodicMs);
    this.wake = new EngineWake(this.ctx.clock, this.ctx.tuning, {
      wakeState: () => this.wakeState(),
      trigger: () => this.trigger(),
      probe: () => this.probe(),
    });
    this.live = new EngineLive(this.ctx, this.entities.length > 0, {
      trigger: () => this.trigger(),
      scheduleIfIdle: () => {
        if (!this.running) this.wake.schedule();
      },
    });
  }

  /** Become leader now (no lock) or when the lock is granted; followers wait quietly. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.status.load();
    if (!this.lock) return this.becomeLeader();
    void this.lock.request(LOCK_NAME, () => {
      if (!this.started) return Promise.resolve();
      return new Promise<void>((release) => {
        this.releaseLock = release;
        void this.becomeLeader();
      });
    });
  }

  async stop(): Promise<void> {
    this.started = false;
    this.clearTimers();
    this.syncLive();
    await this.running;
    if (this.leader) await this.status.set({ syncing: false, leader: false });
    this.leader = false;
    this.releaseLock?.();
    this.releaseLock = null;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /**
   * S18: this tab leads and its change stream is open and heard from: the server tells it of a
   * revocation (onRevokedNotice), so revocation.ts need not ask every minute.
   */
  get streamHealthy(): boolean {
    return this.leader && this.live.isHealthy;
  }

  /** S18: the change stream said this tablet was revoked. Returns the unsubscribe. */
  onRevokedNotice(listener: () => void): () => void {
    return this.live.onRevokedNotice(listener);
  }

  /** "Sync now" (S9): also retries ops waiting out a backoff. */
  syncNow(): void {
    this.forgetBackoff = true;
    this.trigger();
  }

  /** A local write committed: sync about 1 s after the last of a burst (S9). */
  localWrite(): void {
    if (!this.started) return;
    if (this.debounce) this.ctx.clock.clearTimeout(this.debounce);
    this.debounce = this.ctx.clock.setTimeout(() => {
      this.debounce = null;
      this.trigger();
    }, this.ctx.tuning.debounceMs);
  }

  /** Browser online/offline events: a hint only; reaching the server is what counts (S9). */
  connectionChanged(online: boolean): void {
    this.browserOffline = !online;
    if (!online) {
      this.reachable = false;
      this.syncLive();
      void this.status.set({ online: false });
      return;
    }
    this.forgetBackoff = true;
    this.trigger();
  }

  /**
   * Tab visibility (S9): a returning tab syncs at once with backoffs forgotten (the person is
   * looking, and the network may well be back); periodic sync only while visible.
   */
  setVisible(visible: boolean): void {
    this.visible = visible;
    // S18: a hidden tab lets its stream go; a returning one reopens it and pulls once, when it opens.
    this.syncLive();
    if (!visible) return this.wake.schedule();
    this.forgetBackoff = true;
    if (this.live.isOpening) this.live.awaitOpen();
    else this.trigger();
  }

  /**
   * Some request of this app (sign-in check, usage log, another tab's call) got a 2xx answer: the
   * server is reachable. If this engine was waiting out an offline backoff, sync now with every
   * backoff forgotten (S8/S9) instead of when the timer says. Not when all is well (every page's
   * usage log would start a cycle), and not during a 429 hold: the server asked for the pause.
   */
  serverReached(): void {
    // During a cycle the answer is most likely the engine's own request: the cycle goes on anyway.
    if (!this.started || !this.leader || this.running) return;
    const holding = this.ctx.clock.now() < this.hold.holdUntil;
    if (this.reachable && !holding) return;
    if (holding && this.hold.isThrottled) return;
    this.forgetBackoff = true;
    this.trigger();
  }

  /** After a new sign-in following a 401 pause. */
  resume(): void {
    this.paused = null;
    void this.status.set({ paused: null }).then(() => this.trigger());
  }

  /** Resolves when no cycle is running or queued, nor a probe out that may start one (tests). */
  async idle(): Promise<void> {
    while (this.running || this.wake.probing) await (this.running ?? this.wake.probing);
  }

  /** Run a cycle now and wait for it (tests, and the first sync after sign-in). */
  async runOnce(): Promise<void> {
    this.trigger();
    await this.idle();
  }

  private async becomeLeader(): Promise<void> {
    if (!this.started) return;
    this.leader = true;
    const { db } = this.ctx;
    // The first-sync status is derived from syncState, which every page commits with its rows:
    // whatever an earlier session stored, a sync cut off half way reads as unfinished (issue #9.5).
    const [, states] = await Promise.all([
      // Ops left 'inflight' by a tab that died mid-request: their outcome is unknown (S3).
      releaseInflight(db),
      readSyncStates(db, this.entities),
    ]);
    this.syncStates = states;
    await this.status.set({ leader: true, syncing: false, ...firstSyncOf(this.entities, this.syncStates) });
    // The first cycle does not wait for the stream (queued ops, a first download); its opening pulls again.
    this.syncLive();
    this.trigger();
  }

  private trigger(): void {
    if (!this.started || !this.leader) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      await this.cycle();
    } while (this.again && this.started && !this.paused);
    this.syncLive();
    this.wake.schedule();
  }

  private async cycle(): Promise<void> {
    // Reset inside the cycle (not before triggering it) so `running` is set at once and a caller
    // awaiting idle() never slips between the request and the sync.
    if (this.forgetBackoff) {
      this.forgetBackoff = false;
      await this.resetBackoff();
    }
    if (this.paused || this.ctx.clock.now() < this.hold.holdUntil) return;
    if (this.strandedOps) this.strandedOps = (await tryReleaseInflight(this.ctx.db, this.ctx.userId)) === false;
    await this.status.set({ syncing: true });
    try {
      const { stop, nextAttemptAt } = await runCycle(this.ctx, this.entities);
      this.nextOpAt = nextAttemptAt;
      if (stop) this.onStop(stop);
      else {
        this.hold.clear();
        await this.status.set({ lastSyncedAt: this.ctx.clock.now(), lastError: null });
      }
    } catch (error) {
      // Our own failure (storage full, a bug): keep every op, show it, try again later. Every lane
      // of the push has stopped (runLanes waits for all), so an op still 'inflight' is one this
      // cycle took and never finished: pending again, or plan-push would block it until a reload.
      this.strandedOps = (await tryReleaseInflight(this.ctx.db, this.ctx.userId)) === false;
      this.hold.failed(this.ctx.clock.now());
      const message = isQuotaError(error) ? new StorageFullError().message : String((error as Error)?.message ?? error);
      await this.status.set({ lastError: message });
    } finally {
      await this.status.set({ syncing: false, online: this.reachable, paused: this.paused });
    }
  }

  private onStop(stop: ErrorClass): void {
    if (stop.kind === 'auth') {
      // Keep the queue; the shell asks the person to sign in again, then calls resume().
      this.paused = 'auth';
      return;
    }
    const lastError = this.hold.stopped(stop, this.ctx.clock.now());
    if (lastError !== undefined) void this.status.set({ lastError });
  }

  /** What the wake timers go by (wake-plan.ts); none while stopped, a follower or paused. */
  private wakeState(): WakeState | null {
    if (!this.started || !this.leader || this.paused) return null;
    const { hold, nextOpAt, visible, reachable, browserOffline } = this;
    return { now: this.ctx.clock.now(), holdUntil: hold.holdUntil, nextOpAt, visible, reachable, browserOffline, streamHealthy: this.live.isHealthy };
  }

  /** One small request while offline-held (see schedule): any HTTP answer ends the hold (S8/S9). */
  private async probe(): Promise<void> {
    if (!this.started || !this.leader || this.running || this.reachable || this.browserOffline) return;
    try {
      await this.ctx.transport.filter('User', {}, 'id', 1, 0, ['id']);
    } catch {
      // No answer (still away) or an HTTP error (back): observeReachability has judged it.
    }
    if (this.running) return;
    if (this.reachable) {
      this.forgetBackoff = true;
      this.trigger();
    } else this.wake.schedule();
  }

  /** The connection is back (or a person asked): forget backoffs so everything goes now (S8). */
  private async resetBackoff(): Promise<void> {
    this.hold.clear();
    await forgetOpBackoffs(this.ctx.db, this.ctx.userId);
  }

  private clearTimers(): void {
    if (this.debounce) this.ctx.clock.clearTimeout(this.debounce);
    this.wake.clearTimers();
    this.live.clearTimers();
    this.debounce = null;
  }

  /**
   * S18: the stream is wanted while this tab leads, is visible, and the server is reachable and
   * has not paused us (401); never offline. Called after anything that changes one of those.
   */
  private syncLive(): void {
    this.live.want(this.started && this.leader && this.visible && this.reachable && !this.browserOffline && !this.paused);
  }

  /** A pull committed a page (or learnt its total): show the first-sync progress (issue #9.5). */
  private pullProgress(entity: EntityName, state: SyncStateRow): void {
    this.syncStates.set(entity, state);
    void this.status.set(firstSyncOf(this.entities, this.syncStates));
  }

  private markReachable(reachable: boolean): void {
    const cameBack = reachable && !this.reachable;
    const changed = reachable !== this.reachable;
    this.reachable = reachable;
    if (changed) this.syncLive();
    if (cameBack) {
      // Connection returned: backoffs reset, and the rest of this cycle may proceed (S8).
      void this.status.set({ online: true });
      void this.resetBackoff();
    }
  }
}
