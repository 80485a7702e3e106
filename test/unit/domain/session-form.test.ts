import { describe, expect, it } from 'vitest';
import {
  checkSessionDraft,
  checkWeeklyDraft,
  emptySessionDraft,
  fromLocalInput,
  sessionDraftOf,
  sessionFieldsOf,
  takenPhrase,
  toLocalInput,
  weeklyDefaults,
} from '../../../src/domain/session-form';

describe('session form (issue #23.5)', () => {
  it('turns a datetime-local value into the stored ISO time and back, in local time', () => {
    const iso = fromLocalInput('2025-01-07T09:30');
    expect(iso).toBe(new Date(2025, 0, 7, 9, 30).toISOString());
    expect(toLocalInput(iso)).toBe('2025-01-07T09:30');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });

  it("asks for a number and a date and time in the spec's words; a number already used is refused", () => {
    expect(checkSessionDraft(emptySessionDraft(3), [])).toEqual({ scheduled_at: 'Please enter a date and time' });
    expect(checkSessionDraft({ session_number: '', topic: '', scheduled_at: '2025-01-07T09:00' }, [])).toEqual({ session_number: 'Please enter a session number (1 or more)' });
    expect(checkSessionDraft({ session_number: '1.5', topic: '', scheduled_at: '2025-01-07T09:00' }, []).session_number).toBeDefined();
    expect(checkSessionDraft({ session_number: '2', topic: '', scheduled_at: '2025-01-07T09:00' }, [{ session_number: 2 }])).toEqual({
      session_number: 'Session 2 already exists. Please enter another number',
    });
    expect(checkSessionDraft({ session_number: '3', topic: '', scheduled_at: '2025-01-07T09:00' }, [{ session_number: 2 }])).toEqual({});
  });

  it('stores a trimmed topic (null when empty) and reads a session back into a draft', () => {
    const fields = sessionFieldsOf({ session_number: ' 4 ', topic: '  ', scheduled_at: '2025-01-07T09:00' });
    expect(fields).toEqual({ session_number: 4, topic: null, scheduled_at: new Date(2025, 0, 7, 9, 0).toISOString() });
    expect(sessionDraftOf({ ...fields, topic: 'Saving' })).toEqual({ session_number: '4', topic: 'Saving', scheduled_at: '2025-01-07T09:00' });
    expect(sessionDraftOf({ session_number: null, topic: null, scheduled_at: null })).toEqual({ session_number: '', topic: '', scheduled_at: '' });
  });
});

describe('weekly defaults', () => {
  const now = new Date(2025, 0, 1, 12, 0); // a Wednesday

  it("start on the cohort's start date, its weekday, as many weeks as fit before the end", () => {
    // Mon Jan 6 to Fri Mar 28, 2025: 12 Mondays.
    expect(weeklyDefaults({ start_date: '2025-01-06', end_date: '2025-03-28' }, now)).toEqual({ startDate: '2025-01-06', weekday: '1', time: '09:00', count: '12', topic: '' });
  });

  it('start today when the start date has passed; 12 weeks without an end date', () => {
    expect(weeklyDefaults({ start_date: '2024-10-01', end_date: null }, now)).toMatchObject({ startDate: '2025-01-01', weekday: '3', count: '12' });
    expect(weeklyDefaults({ start_date: null, end_date: '2024-12-01' }, now)).toMatchObject({ startDate: '2025-01-01', count: '12' });
  });

  it('checks the start date, time and count', () => {
    expect(checkWeeklyDraft({ startDate: '', weekday: '1', time: '', count: '0', topic: '' })).toEqual({
      startDate: 'Please enter a start date',
      time: 'Please enter a time',
      count: 'Please enter a number of sessions from 1 to 52',
    });
    expect(checkWeeklyDraft({ startDate: '2025-01-06', weekday: '1', time: '09:00', count: '53', topic: '' }).count).toBeDefined();
    expect(checkWeeklyDraft({ startDate: '2025-01-06', weekday: '1', time: '09:00', count: '10', topic: '' })).toEqual({});
  });
});

describe('takenPhrase', () => {
  it("reads 'Not taken' or '18 of 22 marked, 82% attended' (attended of marked)", () => {
    expect(takenPhrase({ marked: 0, expected: 22, attended: 0 })).toBe('Not taken');
    expect(takenPhrase({ marked: 18, expected: 22, attended: 15 })).toBe('18 of 22 marked, 83% attended');
    // A record of someone no longer on the roster still counts: never '3 of 2'.
    expect(takenPhrase({ marked: 3, expected: 2, attended: 3 })).toBe('3 of 3 marked, 100% attended');
  });
});
