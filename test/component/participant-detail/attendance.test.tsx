import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import type { Attendance } from '../../../shared/entities';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { clearDb, renderPage } from '../render-page';

vi.setConfig({ testTimeout: 30_000 });

const mark = (id: string, session_id: string, cohort_id: string, status: Attendance['status']): Attendance => ({ id, session_id, cohort_id, participant_id: 'p1', status });

beforeEach(async () => {
  await clearDb();
  await db.participants.put({ id: 'p1', first_name: 'Maria', last_name: 'Lopez', academy_uid: 'RA-0001' });
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2025Q1', start_date: '2025-01-06' },
    { id: 'c2', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2024Q3', start_date: '2024-07-01' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2025-01-05', enrollment_status: 'active' },
    { id: 'e2', participant_id: 'p1', cohort_id: 'c2', intake_date: '2024-07-01', enrollment_status: 'withdrawn' },
  ]);
  await db.outcomes.put({ id: 'o1', participant_id: 'p1' });
  await db.sessions.bulkPut([
    { id: 'old1', cohort_id: 'c2', session_number: 1, scheduled_at: '2024-07-02T09:00:00' },
    { id: 's1', cohort_id: 'c1', session_number: 1, scheduled_at: '2025-01-07T09:00:00' },
    { id: 's2', cohort_id: 'c1', session_number: 2, scheduled_at: '2025-01-14T09:00:00' },
    { id: 's3', cohort_id: 'c1', session_number: 3, scheduled_at: '2025-01-21T09:00:00' },
    { id: 's4', cohort_id: 'c1', session_number: 4, scheduled_at: '2025-01-28T09:00:00' },
    { id: 's5', cohort_id: 'c1', session_number: 5, scheduled_at: '2025-02-04T09:00:00' },
  ]);
});
afterEach(cleanup);

const card = async () => within((await screen.findByRole('heading', { name: 'Attendance' })).parentElement!.parentElement!);

describe('ParticipantDetail attendance (issue #23.4)', () => {
  it("shows 'Sessions attended: 3 of 6, 50%', the excused count and the last 3 absences, newest first", async () => {
    await db.attendance.bulkPut([
      mark('a0', 'old1', 'c2', 'absent'),
      mark('a1', 's1', 'c1', 'present'),
      mark('a2', 's2', 'c1', 'excused'),
      mark('a3', 's3', 'c1', 'late'),
      mark('a4', 's4', 'c1', 'absent'),
      mark('a5', 's5', 'c1', 'present'),
    ]);
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    const c = await card();
    expect((await c.findByText('Sessions attended')).nextSibling).toHaveTextContent('3 of 6, 50%');
    expect(c.getByText('Excused', { selector: 'span.text-slate-600' }).nextSibling).toHaveTextContent('1');
    const absences = within(c.getByRole('list', { name: 'Last absences' })).getAllByRole('listitem');
    expect(absences).toHaveLength(3);
    expect(absences[0]).toHaveTextContent('Jan 28, 2025');
    expect(absences[0]).toHaveTextContent('FL-SQ-2025Q1 · Session 4');
    expect(absences[0]).toHaveTextContent('Absent');
    expect(absences[1]).toHaveTextContent('Jan 14, 2025');
    expect(absences[1]).toHaveTextContent('Excused');
    expect(absences[2]).toHaveTextContent('FL-SQ-2024Q3 · Session 1');
    // Spec 2.7's Quick Stats are unchanged beside it.
    const stats = within(screen.getByRole('heading', { name: 'Quick Stats' }).parentElement!.parentElement!);
    expect(stats.getByText('Active Cohorts').nextSibling).toHaveTextContent('1');
    expect(stats.getByText('Total Enrollments').nextSibling).toHaveTextContent('2');
    expect(stats.getByText('Outcome Records').nextSibling).toHaveTextContent('1');
  });

  it("says 'No attendance taken yet' before any session was taken", async () => {
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    const c = await card();
    expect(await c.findByText('No attendance taken yet')).toBeInTheDocument();
    expect(c.queryByText('Last absences')).not.toBeInTheDocument();
  });
});
