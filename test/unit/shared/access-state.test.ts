import { describe, expect, it } from 'vitest';
import { accessState, type AccessState } from '../../../shared/access-state';
import { decide } from '../../../server/auth/permissions';
import { mustCompleteProfile, profileSetupSendsHome } from '../../../src/domain/access';

// Every combination of the three fields the access state reads (spec.md 2.3, 2.14, 4, 6).
const ROLES = ['admin', 'user', 'guest', null] as const;
const APPROVALS = [true, false, null] as const;
const REQUESTS = ['2026-01-05', null] as const;

const matrix = ROLES.flatMap((role) =>
  APPROVALS.flatMap((approved) => REQUESTS.map((requested_access_date) => ({ role, approved, requested_access_date }))),
);
const label = (u: (typeof matrix)[number]) => `role ${u.role}, approved ${u.approved}, request ${u.requested_access_date ? 'sent' : 'none'}`;

function expected(u: (typeof matrix)[number]): AccessState {
  if (u.role === 'admin') return 'admin';
  if (!u.requested_access_date) return 'no_profile';
  if (u.role === 'guest') return 'rejected';
  return u.role === 'user' && u.approved === true ? 'coach' : 'pending';
}

describe('access state: one function for client and server (role × approval × profile)', () => {
  it.each(matrix.map((u) => [label(u), u] as const))('%s', (_name, u) => {
    const state = accessState(u);
    expect(state).toBe(expected(u));
    // The server answers a data read exactly when the client lets the user past its guard.
    const serverReads = decide({ kind: 'user', user: { id: 'u1', ...u } }, 'read', 'Participant').allow;
    const clientLetsIn = !mustCompleteProfile(u);
    expect(clientLetsIn).toBe(serverReads);
    expect(serverReads).toBe(state === 'admin' || state === 'coach');
    // ProfileSetup never sends home a user the guard would send straight back (no redirect loop).
    if (profileSetupSendsHome(u)) expect(clientLetsIn).toBe(true);
  });

  it('an approved guest is refused on both sides (rejected, not let in)', () => {
    const approvedGuest = { role: 'guest', approved: true, requested_access_date: '2026-01-05' };
    expect(accessState(approvedGuest)).toBe('rejected');
    expect(mustCompleteProfile(approvedGuest)).toBe(true);
    expect(decide({ kind: 'user', user: { id: 'g', ...approvedGuest } }, 'read', 'Participant')).toMatchObject({ allow: false, status: 403, code: 'NOT_APPROVED' });
  });
});
