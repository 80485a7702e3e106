import { vi } from 'vitest';
import { createPlatformClient } from '../../../src/platform';
import type { LockState, UnlockResult } from '../../../src/data/device-lock';
import type { AuthEnvironment } from '../../../src/app/auth/auth-provider';
import type { User } from '../../../shared/entities';

/**
 * A scripted platform for shell tests: the real platform client over a fetch that answers the
 * shell's calls (public settings, me, app logs, user list) from plain data.
 */
export interface FakeServer {
  /** 'ok', a 403 reason, or 'offline' (the fetch rejects like a dropped connection). */
  settings?: 'ok' | 'auth_required' | 'user_not_registered' | 'offline' | 'hang';
  me?: User | { status: number } | 'offline';
  users?: User[];
}

export function fakePlatform(server: FakeServer) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.includes('/public-settings/')) {
      const s = server.settings ?? 'ok';
      if (s === 'offline') throw new TypeError('Failed to fetch');
      if (s === 'hang') return new Promise<Response>(() => undefined);
      if (s === 'ok') return json(200, { id: 'passage', public_settings: 'private_with_login' });
      return json(403, { message: 'Forbidden', code: 'FORBIDDEN', extra_data: { reason: s } });
    }
    if (url.endsWith('/entities/User/me')) {
      const me = server.me;
      if (me === 'offline') throw new TypeError('Failed to fetch');
      if (!me) return json(401, { message: 'Authentication required' });
      if ('status' in me && !('id' in me)) return json(me.status, { message: 'Nope' });
      return json(200, me);
    }
    if (url.includes('/log-user-in-app/')) return new Response(null, { status: 200 });
    if (url.includes('/entities/User')) return json(200, server.users ?? []);
    return json(404, { message: 'Not found' });
  });
  const client = createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => 'T', fetch: fetch as unknown as typeof globalThis.fetch, originUrl: 'http://localhost/' });
  return { client, calls, fetch };
}

export interface FakeEnvironmentOptions {
  token?: string | null;
  cachedUser?: User | null;
  /** This user's changes not yet on the server. */
  pending?: number;
  /** Other users with changes still on this device. */
  others?: string[];
  /** What the logout warning answers. */
  confirm?: boolean;
  /** What opening the device lock answers (issue #14); the lock screens have tests of their own. */
  lock?: LockState;
  /** What the lock screens read: wrong tries so far and unsent changes. */
  lockInfo?: {
    failedAttempts?: number;
    pending?: number;
    pendingKinds?: { entity: string; count: number }[];
    pinDestroyed?: boolean;
    /** Whose tablet it is, as the coach directory names them (issue #23.9). */
    owner?: { name: string; email: string } | null;
  };
  /** The browser offers a platform authenticator with PRF. */
  secondFactor?: boolean;
  /** This load completed a fresh password sign-in (a one-time code was exchanged). */
  freshSignIn?: boolean;
  /** The owner of a locked vault when there is no token in memory. */
  lockedOwner?: User | null;
}

export function fakeEnvironment(options: FakeEnvironmentOptions = {}) {
  let token = options.token === undefined ? 'T' : options.token;
  /** The PIN opened the vault in this load: start-up, run again, finds it unlocked. */
  let opened = false;
  const env = {
    getToken: () => token,
    clearToken: vi.fn(() => {
      token = null;
    }),
    appBaseUrl: '',
    navigate: vi.fn(),
    reload: vi.fn(),
    session: {
      getCachedUser: vi.fn(async () => options.cachedUser ?? null),
      cacheCurrentUser: vi.fn(async () => undefined),
      pendingCountFor: vi.fn(async () => options.pending ?? 0),
      otherUsersWithPendingOps: vi.fn(async () => options.others ?? []),
      clearLocalData: vi.fn(async () => undefined),
      lockedVaultOwner: vi.fn(async () => options.lockedOwner ?? null),
      rememberSessionToEnd: vi.fn(),
      sessionsToEnd: vi.fn(() => [] as string[]),
      sessionsEnded: vi.fn(),
    },
    sync: { start: vi.fn(), stop: vi.fn() },
    confirmLogout: vi.fn(async () => options.confirm ?? true),
    vault: {
      openDeviceLock: vi.fn(async (_args: { userId: string; fresh: boolean }): Promise<LockState> => (opened ? 'unlocked' : (options.lock ?? 'unlocked'))),
      unlockDevice: vi.fn(async (_pin: string): Promise<UnlockResult> => {
        opened = true;
        return { ok: true };
      }),
      chooseDevicePin: vi.fn(async () => undefined),
      lockDevice: vi.fn(),
      askPinReset: vi.fn(),
      onLockedElsewhere: vi.fn(() => () => undefined),
      forgetSession: vi.fn(async () => undefined),
      secondFactorAvailable: vi.fn(async () => options.secondFactor ?? false),
      isDeviceUnlocked: vi.fn(() => opened),
      deviceLockInfo: vi.fn(async () => ({
        policy: { pin_min_length: 8, idle_lock_minutes: 15 },
        failedAttempts: options.lockInfo?.failedAttempts ?? 0,
        retryAt: null,
        pending: options.lockInfo?.pending ?? options.pending ?? 0,
        pendingKinds: options.lockInfo?.pendingKinds ?? [],
        pinDestroyed: options.lockInfo?.pinDestroyed ?? false,
        owner: options.lockInfo?.owner ?? null,
      })),
    },
    completeSignIn: vi.fn(async () => options.freshSignIn ?? false),
    loginUrl: vi.fn(async (from: string) => `/login?from_url=${encodeURIComponent(from)}&code_challenge=CHALLENGE&code_challenge_method=S256`),
    sessionIdOf: vi.fn(() => 'SID-1'),
  } satisfies AuthEnvironment;
  return env;
}

export const USERS = {
  admin: { id: 'a1', email: 'admin@example.org', full_name: 'Ada Admin', role: 'admin', approved: true, requested_access_date: '2026-01-01' },
  coach: { id: 'c1', email: 'coach@example.org', full_name: 'Cora Coach', role: 'user', approved: true, requested_access_date: '2026-01-02' },
  newcoach: { id: 'n1', email: 'newcoach@example.org', full_name: 'Nell New', role: 'user', approved: false, requested_access_date: null },
  pending: { id: 'p1', email: 'pending@example.org', full_name: 'Pat Pending', role: 'user', approved: false, requested_access_date: '2026-11-20' },
} satisfies Record<string, User>;
