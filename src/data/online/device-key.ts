import { dataContext } from '../context';
import { fromBase64 } from '../vault/keys';
import { DEFAULT_POLICY, type VaultPolicy } from '../vault/device-vault';

export interface DeviceKeyAnswer {
  key: Uint8Array;
  policy: VaultPolicy;
}

/**
 * The per-user key the server keeps for a signed-in user (issue #14.2b: `functions/deviceKey`),
 * with the administrator's PIN policy. null when it cannot be had (offline, an old server): the
 * device then relies on the PIN alone until the next online start.
 */
export async function fetchDeviceKey(): Promise<DeviceKeyAnswer | null> {
  const client = dataContext().client;
  if (!client?.functions) return null;
  try {
    const { data } = await client.functions.invoke('deviceKey', {});
    const answer = data as { key?: unknown; policy?: Partial<VaultPolicy> } | null;
    if (typeof answer?.key !== 'string') return null;
    const key = fromBase64(answer.key);
    if (key.length !== 32) return null;
    return { key, policy: { ...DEFAULT_POLICY, ...answer.policy } };
  } catch {
    return null;
  }
}
