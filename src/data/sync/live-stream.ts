/**
 * S18 Push: the one change stream of this device's sync leader. The engine says when it is wanted
 * (leader, tab visible, server reachable, not paused); this holds it open, tells the engine when it
 * opens (changes made while none was open were never told: pull once), when something changed
 * (notices within `noticeDelayMs` of the first are one pull), when the server says this tablet was
 * revoked (revocation.ts then asks deviceStatus at once), and whether it is healthy (open and
 * heard from within `staleMs`): the engine's periodic pull is a 10-minute safety net only then.
 * When it ends, live-plan.ts decides: reopen with backoff, or give up (a server without the stream)
 * and leave it to polling. Time comes from the injected clock, the stream from the transport (S14).
 */
import { afterStreamEnd, type StreamEnd } from './live-plan';
import type { Clock, EngineTuning, ServerNotice } from './types';

export interface LiveStreamHost {
  open(signal: AbortSignal): AsyncIterable<ServerNotice>;
  clock: Clock;
  random: () => number;
  tuning: Pick<EngineTuning, 'staleMs' | 'noticeDelayMs'>;
  /** A stream opened and spoke. */
  opened(): void;
  /** Records changed on the server (after the notice window). */
  changed(): void;
  /** The server says this tablet was revoked (told at once; the stream ends after it). */
  revoked(): void;
  healthChanged(healthy: boolean): void;
  /**
   * The stream ended or could not open. `checkConnection`: in a way a sync cycle should look into
   * (connection gone? session over?).
   */
  ended(checkConnection: boolean): void;
}

export class LiveStream {
  private wanted = false;
  private gaveUp = false;
  private healthy = false;
  private failures = 0;
  /** Bumped whenever a stream is let go, so a late message or error of an old one is ignored. */
  private generation = 0;
  private controller: AbortController | null = null;
  private retryTimer: unknown = null;
  private staleTimer: unknown = null;
  private noticeTimer: unknown = null;

  constructor(private readonly host: LiveStreamHost) {}

  /** Open and healthy: heard from within `staleMs`. */
  get isHealthy(): boolean {
    return this.healthy;
  }

  /** A stream is being opened and has not spoken yet. */
  get isOpening(): boolean {
    return this.controller !== null && !this.healthy;
  }

  want(on: boolean): void {
    if (on === this.wanted) return;
    this.wanted = on;
    if (on) {
      if (!this.gaveUp) this.connect();
      return;
    }
    // Wanted anew later (tab shown again, connection back): a fresh try, whatever happened before.
    this.gaveUp = false;
    this.failures = 0;
    this.letGo();
    const { clock } = this.host;
    if (this.retryTimer) clock.clearTimeout(this.retryTimer);
    if (this.noticeTimer) clock.clearTimeout(this.noticeTimer);
    this.retryTimer = this.noticeTimer = null;
  }

  private connect(): void {
    this.retryTimer = null;
    if (!this.wanted || this.controller) return;
    const generation = ++this.generation;
    const controller = (this.controller = new AbortController());
    this.armStale(generation);
    void this.read(generation, controller.signal);
  }

  private async read(generation: number, signal: AbortSignal): Promise<void> {
    let end: StreamEnd = { kind: 'ended' };
    try {
      for await (const notice of this.host.open(signal)) {
        if (generation !== this.generation) return;
        this.heard(generation);
        if (notice.kind === 'changed') this.noticed();
        else if (notice.kind === 'revoked') this.host.revoked();
      }
    } catch (error) {
      const { status, retryAfterSeconds } = (error ?? {}) as { status?: number; retryAfterSeconds?: number };
      end = status === undefined ? { kind: 'unreachable' } : { kind: 'refused', status, ...(retryAfterSeconds != null ? { retryAfterMs: retryAfterSeconds * 1000 } : {}) };
    }
    if (generation === this.generation) this.ended(end);
  }

  private heard(generation: number): void {
    this.armStale(generation);
    if (this.healthy) return;
    this.healthy = true;
    this.failures = 0;
    this.host.healthChanged(true);
    this.host.opened();
  }

  private noticed(): void {
    if (this.noticeTimer) return;
    this.noticeTimer = this.host.clock.setTimeout(() => {
      this.noticeTimer = null;
      this.host.changed();
    }, this.host.tuning.noticeDelayMs);
  }

  private armStale(generation: number): void {
    const { clock, tuning } = this.host;
    if (this.staleTimer) clock.clearTimeout(this.staleTimer);
    this.staleTimer = clock.setTimeout(() => {
      this.staleTimer = null;
      if (generation === this.generation) this.ended({ kind: 'stale' });
    }, tuning.staleMs);
  }

  private ended(end: StreamEnd): void {
    this.letGo();
    this.failures++;
    const plan = afterStreamEnd(end, this.failures, this.host.random);
    if (plan.action === 'give-up') this.gaveUp = true;
    else if (this.wanted) this.retryTimer = this.host.clock.setTimeout(() => this.connect(), plan.inMs);
    this.host.ended(plan.checkConnection);
  }

  /** Abort the current stream (if any) and forget it; health drops. */
  private letGo(): void {
    this.generation++;
    this.controller?.abort();
    this.controller = null;
    if (this.staleTimer) this.host.clock.clearTimeout(this.staleTimer);
    this.staleTimer = null;
    if (this.healthy) {
      this.healthy = false;
      this.host.healthChanged(false);
    }
  }
}
