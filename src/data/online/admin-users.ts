/**
 * Users for the approvals page (spec.md 2.15, 7.3: User list sorted '-created_date', admin only).
 * Read from the server, not the mirror: an admin deciding on access must see who is waiting now.
 * Without a connection the device's copy is shown instead, marked `fromDevice`.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import type { User } from '../../../shared/entities';

export interface AdminUsers {
  users: User[] | undefined;
  fromDevice: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

function newestFirst(a: User, b: User): number {
  return (b.created_date ?? '').localeCompare(a.created_date ?? '');
}

/** Through the data context's platform client (set at boot by src/main.tsx, so before sync starts). */
export async function loadAdminUsers({ db, client }: DataContext): Promise<{ users: User[]; fromDevice: boolean }> {
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

export function useAdminUsers(enabled: boolean): AdminUsers {
  const ctx = useDataContext();
  const [users, setUsers] = useState<User[] | undefined>(undefined);
  const [fromDevice, setFromDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = useCallback((): Promise<void> => {
    const call = ++latest.current;
    return loadAdminUsers(ctx).then(
      (result) => {
        if (call !== latest.current) return; // a newer load already answered
        setUsers(result.users);
        setFromDevice(result.fromDevice);
        setError(null);
      },
      (err: unknown) => {
        if (call !== latest.current) return;
        setError((err as Error).message || 'Failed to load users');
        setUsers((u) => u ?? []);
      },
    );
  }, [ctx]);

  useEffect(() => {
    if (enabled) void load();
  }, [enabled, load]);

  const refresh = useCallback(async () => {
    if (enabled) await load();
  }, [enabled, load]);

  return { users, fromDevice, error, refresh };
}
