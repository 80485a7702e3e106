/**
 * An administrator's revocation of this tablet, learnt at its next contact (issue #21.2):
 * - mode 'erase' (the coach was revoked): the copy goes at once; nothing more is sent.
 * - mode 'flush' (this tablet was revoked, the account may still send): what waits is sent first —
 *   the engine is asked to sync, and the copy is erased once the queue is empty, or after a few
 *   checks if some change cannot be sent (it was refused: it would never leave).
 *
 * When it asks deviceStatus (issue #24.4, S18: an idle online tablet makes no request but its
 * change stream):
 * - when the watch starts (every tab), and at once when the change stream says `revoked`;
 * - when the connection returns, and every minute, in the tab whose engine leads — the minute's
 *   check is skipped while that tab's change stream is healthy (the server tells a revocation on
 *   it). Where the stream is not healthy (a server without it, a proxy that buffers, the polling
 *   fallback) the minute's check stays.
 * Tabs that follow a leader never ask on their own: the leader's runtime tells them on the
 * 'passage-sync' channel when the copy must go (runtime.ts).
 * Without `signals` (no engine to ask) every check runs as before: start, online, every minute.
 */
import type { DataContext } from './context';
import { fetchDeviceStatus, REVOKED_DEFAULT } from './online/device-key';
import type { Clock } from './sync/types';
import { readVault } from './vault/device-vault';

export interface RevocationWatch {
  stop(): void;
}

export const CHECK_EVERY_MS = 60_000;
/** Checks after a flush revocation before the copy goes even with changes still queued. */
const FLUSH_CHECKS = 3;
const FLUSH_RECHECK_MS = 5_000;

/** What this tab's sync engine says (SyncEngine has these). */
export interface RevocationSignals {
  readonly isLeader: boolean;
  /** This tab leads and its change stream is open and heard from. */
  readonly streamHealthy: boolean;
  /** The change stream said this tablet was revoked; returns the unsubscribe. */
  onRevokedNotice(listener: () => void): () => void;
}

export interface RevocationHandlers {
  syncNow: () => void;
  /** Erase the copy and tell the coach why. Called once. */
  onRevoked: (reason: string) => void;
  signals?: RevocationSignals;
  /** Timers (S14): the real ones unless a test passes its own. */
  clock?: Clock;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Watches this device (its vault's device id, asked through its client) until stop(). */
export function watchRevocation(ctx: DataContext, { syncNow, onRevoked, signals, clock = realClock }: RevocationHandlers): RevocationWatch {
  const { db } = ctx;
  let stopped = false;
  let flushChecks = 0;
  let busy = false;
  /** Asked while a check was out (a revoked notice during the start check): ask again after it. */
  let again = false;
  let timer: unknown = null;

  const check = async () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const deviceId = (await readVault(db).catch(() => null))?.device_id;
      if (!deviceId) return;
      const status = await fetchDeviceStatus(ctx, deviceId);
      if (stopped || !status || status.status !== 'revoked') return;
      if (status.mode === 'flush') {
        const waiting = await db.outbox.count();
        if (waiting > 0 && flushChecks < FLUSH_CHECKS) {
          flushChecks++;
          syncNow();
          clock.setTimeout(() => void check(), FLUSH_RECHECK_MS);
          return;
        }
      }
      stopped = true;
      onRevoked(status.reason || REVOKED_DEFAULT);
    } finally {
      busy = false;
      if (again) {
        again = false;
        void check();
      }
    }
  };

  /** A follower leaves it to the leader; a leader whose stream is healthy hears it on the stream. */
  const leaderMustAsk = () => !signals || (signals.isLeader && !signals.streamHealthy);

  const tick = () => {
    timer = null;
    if (stopped) return;
    if (leaderMustAsk()) void check();
    timer = clock.setTimeout(tick, CHECK_EVERY_MS);
  };

  timer = clock.setTimeout(tick, CHECK_EVERY_MS);
  const onOnline = () => {
    if (!signals || signals.isLeader) void check();
  };
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline);
  const unsubscribe = signals?.onRevokedNotice(() => void check());
  void check();
  return {
    stop() {
      stopped = true;
      if (timer) clock.clearTimeout(timer);
      timer = null;
      unsubscribe?.();
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
    },
  };
}
