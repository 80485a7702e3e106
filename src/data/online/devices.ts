/**
 * The administrator's side of device revocation (issue #21.2; the functions: server/README.md):
 * the tablets registered with a PIN, and the two ways to take them back. Online only, like the
 * approvals: these are the server's facts and decisions, never queued.
 *
 * Server functions (POST /apps/:appId/functions/<name>, admin only):
 * - `listDevices` `{ user_id? }` → `{ devices: DeviceRecord[] }`, newest first;
 * - `revokeDevice` `{ device_id, reason? }` → `{ ok: true }` (mode `flush`: the tablet sends what
 *   waits, then erases at its next contact);
 * - `revokeUser` `{ user_id, reason? }` → `{ ok: true, devices: n }` (every tablet of the user in
 *   mode `erase`, every session ended; refused for oneself).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { OfflineError } from '../errors';

export interface DeviceRecord {
  device_id: string;
  user_id: string;
  user_email: string | null;
  user_name: string | null;
  created_date: string | null;
  last_seen_date: string | null;
  last_release_date: string | null;
  revoked_date: string | null;
  revoked_reason: string | null;
  revoke_mode: 'flush' | 'erase' | null;
}

/** What the panel says, and what a device call throws, when the server cannot be reached. */
export const DEVICES_OFFLINE_MESSAGE = 'Tablets can be managed when online.';

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** One function call through the data context's platform client; no answer = OfflineError. */
async function invoke({ client }: DataContext, name: string, params: Record<string, unknown>): Promise<unknown> {
  if (!client?.functions || isOffline()) throw new OfflineError(DEVICES_OFFLINE_MESSAGE);
  try {
    const { data } = await client.functions.invoke(name, params);
    return data;
  } catch (error) {
    // The platform client throws PlatformError: status undefined means no HTTP answer arrived.
    // Anything else carries the server's own message (errorMessageFrom) and is passed on as is.
    if ((error as { status?: number } | null)?.status === undefined) throw new OfflineError(DEVICES_OFFLINE_MESSAGE);
    throw error;
  }
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function toRecord(row: Record<string, unknown>): DeviceRecord | null {
  const deviceId = str(row.device_id);
  const userId = str(row.user_id);
  if (!deviceId || !userId) return null;
  const mode = row.revoke_mode;
  return {
    device_id: deviceId,
    user_id: userId,
    user_email: str(row.user_email),
    user_name: str(row.user_name),
    created_date: str(row.created_date),
    last_seen_date: str(row.last_seen_date),
    last_release_date: str(row.last_release_date),
    revoked_date: str(row.revoked_date),
    revoked_reason: str(row.revoked_reason),
    revoke_mode: mode === 'flush' || mode === 'erase' ? mode : null,
  };
}

/** A reason worth sending: trimmed, and left out when empty. */
function withReason(params: Record<string, unknown>, reason?: string): Record<string, unknown> {
  const text = reason?.trim();
  return text ? { ...params, reason: text } : params;
}

/** Every registered tablet (or only `userId`'s), newest first as the server orders them. */
export async function listDevices(ctx: DataContext, userId?: string): Promise<DeviceRecord[]> {
  const data = (await invoke(ctx, 'listDevices', userId ? { user_id: userId } : {})) as { devices?: unknown } | null;
  if (!Array.isArray(data?.devices)) throw new Error('The server sent an unexpected answer.');
  return data.devices.flatMap((row) => {
    const record = row && typeof row === 'object' ? toRecord(row as Record<string, unknown>) : null;
    return record ? [record] : [];
  });
}

/** One tablet: it may still send what waits, then erases its copy at its next connection. */
export async function revokeDevice(ctx: DataContext, deviceId: string, reason?: string): Promise<void> {
  await invoke(ctx, 'revokeDevice', withReason({ device_id: deviceId }, reason));
}

/** Every tablet of a coach (erased at next connection, waiting changes lost) and every sign-in. */
export async function revokeUser(ctx: DataContext, userId: string, reason?: string): Promise<{ devices: number }> {
  const data = (await invoke(ctx, 'revokeUser', withReason({ user_id: userId }, reason))) as { devices?: unknown } | null;
  return { devices: typeof data?.devices === 'number' ? data.devices : 0 };
}

export interface AdminDevices {
  /** undefined while the first load runs (and while offline before any answer). */
  devices: DeviceRecord[] | undefined;
  /** No connection (the browser says so, or no answer came): the panel cannot manage tablets. */
  offline: boolean;
  /** The server's message when it answered with an error. */
  error: string | null;
  refresh(): Promise<void>;
}

/** The tablets panel's list: loaded when enabled, again on `online` and on refresh(). */
export function useAdminDevices(enabled: boolean): AdminDevices {
  const ctx = useDataContext();
  const [devices, setDevices] = useState<DeviceRecord[] | undefined>(undefined);
  const [offline, setOffline] = useState(isOffline);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = useCallback((): Promise<void> => {
    const call = ++latest.current;
    return listDevices(ctx).then(
      (rows) => {
        if (call !== latest.current) return; // a newer load already answered
        setDevices(rows);
        setOffline(false);
        setError(null);
      },
      (err: unknown) => {
        if (call !== latest.current) return;
        if (err instanceof OfflineError) {
          setOffline(true);
          setError(null);
        } else {
          setOffline(false);
          setError((err as Error)?.message || 'Failed to load tablets');
          setDevices((d) => d ?? []);
        }
      },
    );
  }, [ctx]);

  useEffect(() => {
    if (!enabled) return;
    void load();
    const goOnline = () => void load();
    const goOffline = () => {
      latest.current++; // an answer still on its way no longer decides the panel
      setOffline(true);
    };
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
    };
  }, [enabled, load]);

  const refresh = useCallback(async () => {
    if (enabled) await load();
  }, [enabled, load]);

  return { devices, offline, error, refresh };
}
