import { describe, expect, it } from 'vitest';
import { laterServerTap, serverTapIsLater, settleTap } from '../../../src/data/sync/later-tap';

const base = { session_id: 's1', participant_id: 'p1', cohort_id: 'c1' };
const mine = { ...base, status: 'present', note: null, recorded_by: 'a@example.org', recorded_at: '2026-01-15T17:05:00.000Z', client_ref: 'mine' };
const theirs = { ...base, id: 'r1', status: 'absent', note: 'Sick', recorded_by: 'b@example.org', recorded_at: '2026-01-15T17:06:00.000Z', client_ref: 'theirs', updated_date: 'u1' };

describe('S16: the later tap wins', () => {
  it('the server tapped later: nothing is sent, each field chosen differently is a conflict (tap bookkeeping is not)', () => {
    expect(serverTapIsLater('Attendance', mine, theirs)).toBe(true);
    expect(settleTap('Attendance', mine, theirs)).toEqual({
      send: {},
      conflicts: { status: { local: 'present', server: 'absent' }, note: { local: null, server: 'Sick' } },
    });
  });

  it('this device tapped later: its values go out, keys and client_ref never, and the other tap is the conflict', () => {
    const later = { ...mine, recorded_at: '2026-01-15T17:07:00.000Z' };
    const outcome = settleTap('Attendance', later, theirs);
    expect(outcome.send).toEqual({ status: 'present', note: null, recorded_by: 'a@example.org', recorded_at: '2026-01-15T17:07:00.000Z' });
    expect(Object.keys(outcome.conflicts).sort()).toEqual(['note', 'status']);
  });

  it('the same choice on both tablets is no conflict; an unknown server time counts as older', () => {
    const same = { ...theirs, status: 'present', note: null };
    expect(settleTap('Attendance', mine, same).conflicts).toEqual({});
    expect(serverTapIsLater('Attendance', mine, { ...theirs, recorded_at: null })).toBe(false);
    expect(serverTapIsLater('Participant', mine, theirs)).toBe(false);
  });

  it('a queued update older than the server tap is dropped into conflicts; an edit without a tap time follows S4', () => {
    const op = { data: { status: 'late', recorded_at: '2026-01-15T17:05:30.000Z' } };
    expect(laterServerTap('Attendance', op, theirs)).toEqual({ send: {}, conflicts: { status: { local: 'late', server: 'absent' } }, newBase: { status: 'absent', recorded_at: theirs.recorded_at } });
    expect(laterServerTap('Attendance', { data: { note: 'Fixed' } }, theirs)).toBeNull();
    expect(laterServerTap('Attendance', { data: { status: 'late', recorded_at: '2026-01-15T17:09:00.000Z' } }, theirs)).toBeNull();
  });
});
