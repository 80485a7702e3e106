/**
 * An administrator's revocation of this tablet, learnt at its next contact (issue #21.2):
 * - mode 'erase' (the coach was revoked): the copy goes at once; nothing more is sent.
 * - mode 'flush' (this tablet was revoked, the account may still send): what waits is sent first —
 *   the engine is asked to sync, and the copy is erased once the queue is empty, or after a few
 *   checks if some change cannot be sent (it was refused: it would never leave).
 * Asked when sync starts, every minute while it runs, and when the connection returns.
 */
import type { DataContext } from './context';
import { fetchDeviceStatus, REVOKED_DEFAULT } from './online/device-key';
import { readVault } from './vault/device-vault';

export interface RevocationWatch {
  stop(): void;
}

const CHECK_EVERY_MS = 60_000;
/** Checks after a flush revocation before the copy goes even with changes still queued. */
const FLUSH_CHECKS = 3;

export interface RevocationHandlers {
  syncNow: () => void;
  /** Erase the copy and tell the coach why. Called once. */
  onRevoked: (reason: string) => void;
}

/** Watches this device (its vault's device id, asked through its client) until stop(). */
export function watchRevocation(ctx: DataContext, { syncNow, onRevoked }: RevocationHandlers): RevocationWatch {
  const { db } = ctx;
  let stopped = false;
  let flushChecks = 0;
  let busy = false;

  const check = async () => {
    if (stopped || busy) return;
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
          setTimeout(() => void check(), 5_000);
          return;
        }
      }
      stopped = true;
      onRevoked(status.reason || REVOKED_DEFAULT);
    } finally {
      busy = false;
    }
  };

  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  const onOnline = () => void check();
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline);
  void check();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
    },
  };
}
