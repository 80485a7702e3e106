/**
 * S8/S9: the sync engine's wake timers. One timer for the earliest of the held-back retry, the
 * next op's backoff and the periodic sync (wake-plan.ts decides when), and the probe: one small
 * request while the server is out of reach, whose answer may end the hold. The engine says where
 * it stands and what a wake or a probe does; time comes from its injected clock (S14).
 */
import type { Clock, EngineTuning } from './types';
import { wakeTimes, type WakeState } from './wake-plan';

/** What the engine lends its wake timers. */
export interface EngineWakeHost {
  /** Where the engine stands now, or null when it must not wake (stopped, a follower, paused). */
  wakeState(): WakeState | null;
  /** Start a cycle. */
  trigger(): void;
  /** Send the probe (see SyncEngine.probe). */
  probe(): Promise<void>;
}

export class EngineWake {
  private timer: unknown = null;
  private probeTimer: unknown = null;
  /** The probe's request while it is out: its answer may start a cycle (see SyncEngine.idle). */
  private probingNow: Promise<void> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly tuning: EngineTuning,
    private readonly host: EngineWakeHost,
  ) {}

  get probing(): Promise<void> | null {
    return this.probingNow;
  }

  /** Arm the one timer for the earliest of: held-back retry, op backoff, periodic sync; and the probe. */
  schedule(): void {
    this.clearTimers();
    const state = this.host.wakeState();
    if (!state) return;
    const { now } = state;
    const { at, probeAt } = wakeTimes(state, this.tuning);
    if (at != null) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        this.host.trigger();
      }, at - now);
    }
    if (probeAt != null) {
      this.probeTimer = this.clock.setTimeout(() => {
        this.probeTimer = null;
        const probing = this.host.probe().finally(() => {
          if (this.probingNow === probing) this.probingNow = null;
        });
        this.probingNow = probing;
      }, probeAt - now);
    }
  }

  clearTimers(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    if (this.probeTimer) this.clock.clearTimeout(this.probeTimer);
    this.timer = this.probeTimer = null;
  }
}
