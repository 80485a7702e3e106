import { useCallback, useEffect, useRef, useState } from 'react';
import { dataContext } from '../context';
import type { PlatformClientLike } from '../platform-like';
import type { User } from '../../../shared/entities';

/**
 * Users for the approvals page (spec.md 2.15, 7.3: User list sorted '-created_date', admin only).
 * Read from the server, not the mirror: an admin deciding on access must see who is waiting now.
 * Without a connection the device's copy is shown instead, marked `fromDevice`.
 */
export interface AdminUsers {
  users: User[] | undefined;
  fromDevice: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

function newestFirst(a: User, b: User): number {
  return (b.created_date ?? '').localeCompare(a.created_date ?? '');
}

/**
 * `client` is the shell's platform client; the data context's copy is only set once the sync
 * runtime has started, which can be after this page first renders.
 */
export async function loadAdminUsers(given?: PlatformClientLike | null): Promise<{ users: User[]; fromDevice: boolean }> {
  const { db } = dataContext();
  const client = given ?? dataContext().client;
  if (client && !(typeof navigator !== 'undefined' && navigator.onLine === false)) {
    try {
      const rows = (await client.entities('User').list('-created_date')) as unknown as User[];
      return { users: rows, fromDevice: false };
    } catch (error) {
      // Only a missing answer falls back; a 403 or 500 is a real failure the page must show.
      if ((error as { status?: number }).status !== undefined) throw error;
    }
  }
  const rows = await db.users.toArray();
  return { users: rows.sort(newestFirst), fromDevice: true };
}

export function useAdminUsers(enabled: boolean, client?: PlatformClientLike | null): AdminUsers {
  const [users, setUsers] = useState<User[] | undefined>(undefined);
  const [fromDevice, setFromDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    if (!enabled) return;
    const call = ++latest.current;
    try {
      const result = await loadAdminUsers(client);
      if (call !== latest.current) return; // a newer refresh already answered
      setUsers(result.users);
      setFromDevice(result.fromDevice);
      setError(null);
    } catch (err) {
      if (call !== latest.current) return;
      setError((err as Error).message || 'Failed to load users');
      setUsers((u) => u ?? []);
    }
  }, [enabled, client]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { users, fromDevice, error, refresh };
}
