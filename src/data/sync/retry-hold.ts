/**
 * S8/S9: how long the sync engine holds off after a cycle that could not finish. Counts the
 * consecutive failed cycles, keeps the time before which no cycle runs, and whether that hold is
 * the server's own request to slow down (429, Retry-After). The engine owns the rest (pausing on
 * 401, the status it shows); time comes from the engine's injected clock, jitter from its random.
 */
import { backoffDelay } from './backoff';
import { unreachable } from '../../domain/unreachable';
import type { ErrorClass } from './classify-error';

export class RetryHold {
  /** Consecutive cycles that could not reach the server (or got 5xx/429 for everyone). */
  private failures = 0;
  private until = 0;
  /** Whether the current hold honours the server's own request to slow down (429, Retry-After). */
  private throttled = false;

  constructor(
    private readonly random: () => number,
    private readonly periodicMs: number,
  ) {}

  /** No cycle runs before this time (0: none held back). */
  get holdUntil(): number {
    return this.until;
  }

  /** The current hold is the server's request to slow down: an answer from it does not end it. */
  get isThrottled(): boolean {
    return this.throttled;
  }

  /** A cycle finished, or the connection is back (or a person asked): no more holding (S8). */
  clear(): void {
    this.failures = 0;
    this.until = 0;
  }

  /** Our own failure (storage full, a bug): try again after a backoff. */
  failed(now: number): void {
    this.failures++;
    this.until = now + backoffDelay(this.failures, this.random);
  }

  /**
   * A cycle stopped early (not for 'auth': the engine pauses). Returns the status's new
   * `lastError`, or undefined to leave it as it is.
   */
  stopped(stop: Exclude<ErrorClass, { kind: 'auth' }>, now: number): string | null | undefined {
    switch (stop.kind) {
      case 'offline': {
        // A failed probe never pushes the next try past the periodic interval: a tablet back in
        // signal range without an 'online' event still syncs within a minute (S9).
        this.failures++;
        this.throttled = false;
        this.until = now + Math.min(backoffDelay(this.failures, this.random), this.periodicMs);
        return null;
      }
      case 'retry':
      case 'throttle':
        this.failures++;
        this.throttled = stop.kind === 'throttle';
        this.until = now + backoffDelay(this.failures, this.random, stop.retryAfterMs);
        return stop.message;
      case 'reject':
      case 'timeout':
        return undefined;
      default:
        return unreachable(stop, 'stop');
    }
  }
}
