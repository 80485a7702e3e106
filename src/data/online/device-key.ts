import type { DataContext } from '../context';
import { fromBase64 } from '../vault/keys';
import { DEFAULT_POLICY, type VaultPolicy } from '../vault/device-vault';

export interface DeviceKeyAnswer {
  /** This device's server key of this release (it rotates at every release). */
  key: Uint8Array;
  /** The key it replaced, which may still seal this device's copy; null at the first release. */
  previous: Uint8Array | null;
  policy: VaultPolicy;
}

/** The server answered, and said no (not approved, sign-in not fresh, device revoked, too many). */
export interface DeviceKeyRefusal {
  refused: string;
  message: string;
}

function key32(value: unknown): Uint8Array | null {
  if (typeof value !== 'string') return null;
  const key = fromBase64(value);
  return key.length === 32 ? key : null;
}

/**
 * This device's key from the server (issue #21.2: `functions/deviceKey`), with the administrator's
 * PIN policy. The server releases it only to an approved, active account within minutes of a
 * password sign-in. null when it cannot be had (offline, an old server): the device then relies on
 * the PIN alone until the next fresh sign-in.
 */
export async function fetchDeviceKey({ client }: DataContext, deviceId: string): Promise<DeviceKeyAnswer | DeviceKeyRefusal | null> {
  if (!client?.functions) return null;
  try {
    const { data } = await client.functions.invoke('deviceKey', { device_id: deviceId });
    const answer = data as { key?: unknown; previous?: unknown; policy?: Partial<VaultPolicy> } | null;
    const key = key32(answer?.key);
    if (!key) return null;
    return { key, previous: key32(answer?.previous), policy: { ...DEFAULT_POLICY, ...answer?.policy } };
  } catch (err) {
    const refusal = refusalOf(err);
    return refusal;
  }
}

/**
 * A 4xx answer as a refusal: Passage's client throws a PlatformError (status, code, message); the
 * SDK's functions.invoke rejects with the raw answer (platform-contract.md 5.5). null otherwise.
 */
function refusalOf(err: unknown): DeviceKeyRefusal | null {
  const e = err as { status?: number; code?: unknown; message?: unknown; response?: { status?: number; data?: { code?: unknown; message?: unknown } } };
  const status = e?.response?.status ?? e?.status;
  if (!status || status >= 500) return null;
  const code = e.response?.data?.code ?? e.code ?? status;
  const message = e.response?.data?.message ?? e.message ?? 'The server refused the device key';
  return { refused: String(code), message: String(message) };
}

export type DeviceStatus = { status: 'active' | 'unknown' } | { status: 'revoked'; mode: 'flush' | 'erase'; reason: string };

/**
 * Whether an administrator revoked this device (issue #21.2). null when the server cannot say
 * (offline, an old server without the function).
 */
export async function fetchDeviceStatus({ client }: DataContext, deviceId: string): Promise<DeviceStatus | null> {
  if (!client?.functions) return null;
  try {
    const { data } = await client.functions.invoke('deviceStatus', { device_id: deviceId });
    const answer = data as { status?: unknown; mode?: unknown; reason?: unknown } | null;
    if (answer?.status === 'revoked') {
      return { status: 'revoked', mode: answer.mode === 'flush' ? 'flush' : 'erase', reason: typeof answer.reason === 'string' && answer.reason ? answer.reason : REVOKED_DEFAULT };
    }
    return answer?.status === 'active' ? { status: 'active' } : { status: 'unknown' };
  } catch (err) {
    // A coach revoked (erase mode): every request of this tablet is refused with DEVICE_REVOKED.
    const refusal = refusalOf(err);
    if (refusal?.refused === 'DEVICE_REVOKED') return { status: 'revoked', mode: 'erase', reason: refusal.message || REVOKED_DEFAULT };
    return null;
  }
}

export const REVOKED_DEFAULT = 'This tablet was signed out by an administrator.';
