import { describe, expect, it } from 'vitest';
import { pickUpcomingSessions } from '../../../src/domain/upcoming-sessions';
import type { Session } from '../../../shared/entities';

const s = (n: number, at: string | null): Session => ({ id: `s${n}`, cohort_id: 'c', session_number: n, scheduled_at: at, topic: `T${n}` });
const now = new Date('2025-03-10T12:00:00');

describe('pickUpcomingSessions', () => {
  it('takes the next 3 sessions from now, soonest first', () => {
    const sessions = [s(1, '2025-03-01T10:00:00'), s(5, '2025-04-01T10:00:00'), s(3, '2025-03-15T10:00:00'), s(4, '2025-03-22T10:00:00'), s(2, '2025-03-10T13:00:00')];
    const picked = pickUpcomingSessions(sessions, now);
    expect(picked.basis).toBe('upcoming');
    expect(picked.sessions.map((x) => x.session_number)).toEqual([2, 3, 4]);
  });

  it('falls back to the first 3 by number when none is ahead', () => {
    const sessions = [s(3, '2025-01-03T10:00:00'), s(1, null), s(4, '2025-01-04T10:00:00'), s(2, '2025-01-02T10:00:00')];
    const picked = pickUpcomingSessions(sessions, now);
    expect(picked.basis).toBe('by-number');
    expect(picked.sessions.map((x) => x.session_number)).toEqual([1, 2, 3]);
  });

  it('gives an empty list for a cohort without sessions', () => {
    expect(pickUpcomingSessions([], now).sessions).toEqual([]);
  });
});
