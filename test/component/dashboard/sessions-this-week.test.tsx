import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { todayISO } from '../../../src/domain/format';
import { DashboardPage } from '../../../src/screens/dashboard/dashboard-page';
import { clearDb, renderPage } from '../render-page';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(clearDb);
afterEach(cleanup);

/** Noon, `days` from today, as the local date-time a session is stored with. */
const noonIn = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${todayISO(d)}T12:00:00`;
};

const panel = async () => (await screen.findByRole('heading', { name: 'Sessions this week' })).parentElement!.parentElement!;

describe('Dashboard: Sessions this week (issue #23.2)', () => {
  it("lists the coach's sessions of today and the next 7 days with their attendance and Take attendance", async () => {
    await db.cohorts.bulkPut([
      { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active', lead_coach_email: 'coach@example.org' },
      { id: 'c2', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-CC-2025Q1', status: 'active', support_coach_emails: ['Coach@example.org'] },
      { id: 'c3', program_id: 'pr1', site_id: 's1', cohort_code: 'NOT-MINE', status: 'active', lead_coach_email: 'lee@example.org' },
    ]);
    await db.sessions.bulkPut([
      { id: 'today', cohort_id: 'c1', session_number: 4, topic: 'Credit', scheduled_at: noonIn(0) },
      { id: 'soon', cohort_id: 'c2', session_number: 2, topic: 'Banking', scheduled_at: noonIn(3) },
      { id: 'later', cohort_id: 'c1', session_number: 5, topic: 'Saving', scheduled_at: noonIn(10) },
      { id: 'past', cohort_id: 'c1', session_number: 3, topic: 'Budgeting', scheduled_at: noonIn(-2) },
      { id: 'theirs', cohort_id: 'c3', session_number: 1, topic: 'Elsewhere', scheduled_at: noonIn(1) },
    ]);
    await db.enrollments.bulkPut([
      { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2020-01-01', enrollment_status: 'active' },
      { id: 'e2', participant_id: 'p2', cohort_id: 'c1', intake_date: '2020-01-01', enrollment_status: 'active' },
      { id: 'e3', participant_id: 'p3', cohort_id: 'c2', intake_date: '2020-01-01', enrollment_status: 'active' },
    ]);
    await db.attendance.put({ id: 'a1', session_id: 'today', cohort_id: 'c1', participant_id: 'p1', status: 'present' });
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const p = await panel();
    const rows = await within(p).findAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['FL-SQ-2025Q1 Session 4', 'FL-CC-2025Q1 Session 2']);
    expect(within(rows[0]).getByText('Today')).toBeInTheDocument();
    expect(within(rows[0]).getByText('FL-SQ-2025Q1 · Session 4 · Credit')).toBeInTheDocument();
    expect(within(rows[0]).getByText('1 of 2 marked')).toBeInTheDocument();
    expect(within(rows[0]).getByText(/, 12:00 PM$/)).toBeInTheDocument();
    expect(within(rows[0]).getByRole('link', { name: 'Take attendance' })).toHaveAttribute('href', '/takeattendance?id=today');
    expect(within(rows[1]).queryByText('Today')).not.toBeInTheDocument();
    expect(within(rows[1]).getByText('Not taken')).toBeInTheDocument();
    expect(within(rows[1]).getByRole('link', { name: 'Take attendance' })).toHaveAttribute('href', '/takeattendance?id=soon');
    // The spec's panels are still there, below.
    expect(screen.getByRole('heading', { name: 'Recent Enrollments' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Upcoming Releases' })).toBeInTheDocument();
  });

  it("says 'No sessions in the next 7 days' when there are none", async () => {
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(await within(await panel()).findByText('No sessions in the next 7 days')).toBeInTheDocument();
  });
});
