import { describe, expect, it, vi } from 'vitest';
import { logOutSafely, type SafeLogoutDeps } from '../../../src/pwa/safe-logout';
import { logoutWarning } from '../../../src/pwa/logout-warning';

function deps(mine: number, others: string[], answer: boolean) {
  const d = {
    pendingCountFor: vi.fn(async () => mine),
    otherUsersWithPendingOps: vi.fn(async () => others),
    clearLocalData: vi.fn(async () => undefined),
    confirm: vi.fn(async () => answer),
  } satisfies SafeLogoutDeps;
  return d;
}

describe('logout on a shared tablet (S11)', () => {
  it('with nothing pending: signs out and wipes the local copy', async () => {
    const d = deps(0, [], true);
    const signOut = vi.fn();
    expect(await logOutSafely('u1', signOut, d)).toBe(true);
    expect(d.confirm).toHaveBeenCalledWith(0);
    expect(d.clearLocalData).toHaveBeenCalledTimes(1);
    expect(signOut).toHaveBeenCalledTimes(1);
    // wiped before the sign-out, so a redirect cannot leave the data behind
    expect(d.clearLocalData.mock.invocationCallOrder[0]).toBeLessThan(signOut.mock.invocationCallOrder[0]);
  });

  it('with 3 pending and the coach confirming: signs out but keeps the changes', async () => {
    const d = deps(3, [], true);
    const signOut = vi.fn();
    expect(await logOutSafely('u1', signOut, d)).toBe(true);
    expect(d.confirm).toHaveBeenCalledWith(3);
    expect(d.clearLocalData).not.toHaveBeenCalled();
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('with pending changes and the coach staying: nothing happens', async () => {
    const d = deps(2, [], false);
    const signOut = vi.fn();
    expect(await logOutSafely('u1', signOut, d)).toBe(false);
    expect(signOut).not.toHaveBeenCalled();
    expect(d.clearLocalData).not.toHaveBeenCalled();
  });

  it("never wipes another user's pending changes", async () => {
    const d = deps(0, ['u2'], true);
    const signOut = vi.fn();
    await logOutSafely('u1', signOut, d);
    expect(d.clearLocalData).not.toHaveBeenCalled();
    expect(signOut).toHaveBeenCalled();
  });
});

describe('logoutWarning', () => {
  it('names the count', () => {
    expect(logoutWarning(3)).toMatch(/^You have 3 changes that have not reached the server\. /);
    expect(logoutWarning(1)).toMatch(/^You have 1 change that has not reached the server\. /);
  });
});
