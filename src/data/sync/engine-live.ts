/**
 * S18: the sync engine's side of its change stream (live-stream.ts holds the stream itself). Built
 * by the engine when its transport has `openEvents` and it pulls: a stream that opened pulls once
 * (what changed while none was open was never told), a notice starts a cycle, a revocation notice
 * goes to onRevokedNotice's listeners, a change of health re-arms the engine's wake timers (the
 * periodic pull is a safety net while it is healthy), and a returning tab's pull waits for the
 * stream to open (or `openWaitMs`). The engine alone says when the stream is wanted. Time comes
 * from the engine's injected clock, the stream from its injected transport (S14).
 */
import { LiveStream } from './live-stream';
import type { RunnerContext } from './runner-context';

/** What the engine lends its stream wiring. */
export interface EngineLiveHost {
  /** Start a cycle now (or once more after the running one). */
  trigger(): void;
  /** Re-arm the wake timers unless a cycle is running (it re-arms them when it ends). */
  scheduleIfIdle(): void;
}

export class EngineLive {
  /** S18: the change stream, when the transport has one and this engine pulls. */
  private readonly stream: LiveStream | null;
  /** S18: a returning tab's pull, held until its stream opens (or `openWaitMs` passes). */
  private openWait: unknown = null;
  private readonly revokedListeners = new Set<() => void>();

  constructor(
    private readonly ctx: Pick<RunnerContext, 'transport' | 'clock' | 'random' | 'tuning'>,
    pulls: boolean,
    private readonly host: EngineLiveHost,
  ) {
    const { transport } = ctx;
    this.stream =
      transport.openEvents && pulls
        ? new LiveStream({
            open: (signal) => transport.openEvents!(signal),
            clock: ctx.clock,
            random: ctx.random,
            tuning: ctx.tuning,
            opened: () => this.streamOpened(),
            changed: () => this.host.trigger(),
            revoked: () => {
              for (const listener of [...this.revokedListeners]) listener();
            },
            healthChanged: () => this.host.scheduleIfIdle(),
            ended: (checkConnection) => this.streamEnded(checkConnection),
          })
        : null;
  }

  /** The stream is open and heard from within `staleMs`. */
  get isHealthy(): boolean {
    return this.stream?.isHealthy ?? false;
  }

  /** A stream is being opened and has not spoken yet. */
  get isOpening(): boolean {
    return this.stream?.isOpening ?? false;
  }

  /** The engine's verdict (see SyncEngine.syncLive): open the stream, or let it go. */
  want(on: boolean): void {
    this.stream?.want(on);
  }

  /** S18: the change stream said this tablet was revoked. Returns the unsubscribe. */
  onRevokedNotice(listener: () => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** A returning tab pulls when its stream opens (one pull, not two), or after `openWaitMs` without it. */
  awaitOpen(): void {
    if (this.openWait) this.ctx.clock.clearTimeout(this.openWait);
    this.openWait = this.ctx.clock.setTimeout(() => {
      this.openWait = null;
      this.host.trigger();
    }, this.ctx.tuning.openWaitMs);
  }

  /** The engine stopped: no held pull goes off later. */
  clearTimers(): void {
    if (this.openWait) this.ctx.clock.clearTimeout(this.openWait);
    this.openWait = null;
  }

  /** S18: a stream opened: what changed while none was open was never told, so pull once. */
  private streamOpened(): void {
    if (this.openWait) this.ctx.clock.clearTimeout(this.openWait);
    this.openWait = null;
    this.host.trigger();
  }

  /** S18: the stream ended; a tab waiting on it pulls now, and a failure that may mean more is looked into. */
  private streamEnded(checkConnection: boolean): void {
    const waiting = this.openWait !== null;
    if (this.openWait) this.ctx.clock.clearTimeout(this.openWait);
    this.openWait = null;
    if (waiting || checkConnection) this.host.trigger();
    else this.host.scheduleIfIdle();
  }
}
