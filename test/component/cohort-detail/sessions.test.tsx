import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { User } from '../../../shared/entities';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { ADMIN, clearDb, COACH, renderPage } from '../render-page';
import { seedCohort } from './seed';

// Live queries answer through IndexedDB; a form filled key by key may take over 5 s on a loaded box.
vi.setConfig({ testTimeout: 30_000 });

/** seed.ts's cohort is led by lee@example.org; COACH supports nothing there. */
const LEAD: User = { ...COACH, id: 'user-lee', email: 'lee@example.org', full_name: 'Lee Lead' };
const SUPPORT: User = { ...COACH, id: 'user-sam', email: 'sam@example.org', full_name: 'Sam Support' };

beforeEach(async () => {
  await clearDb();
  await seedCohort();
  await db.cohorts.update('c1', { support_coach_emails: ['sam@example.org'] });
  await db.sessions.bulkPut([
    // Out of number order on purpose: the list goes by date (domain sortSessions), undated last.
    { id: 'ss6', cohort_id: 'c1', session_number: 6, topic: 'Review', scheduled_at: null },
    { id: 'ss5', cohort_id: 'c1', session_number: 5, topic: 'Taxes', scheduled_at: '2099-01-10T13:00:00' },
  ]);
  await db.attendance.bulkPut([
    { id: 'a1', session_id: 'ss1', cohort_id: 'c1', participant_id: 'p1', status: 'present', recorded_at: '2099-01-07T09:05:00Z' },
    { id: 'a2', session_id: 'ss1', cohort_id: 'c1', participant_id: 'p4', status: 'absent', recorded_at: '2099-01-07T09:05:00Z' },
  ]);
});
afterEach(cleanup);

const rows = async () => within(await screen.findByRole('list', { name: 'Sessions' })).getAllByRole('listitem');

describe('CohortDetail sessions (issue #23.2)', () => {
  it('lists every session in order with its attendance, and links each to TakeAttendance', async () => {
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: SUPPORT });
    expect(await screen.findByRole('heading', { name: 'Sessions (6)' })).toBeInTheDocument();
    const items = await rows();
    expect(items.map((li) => li.textContent?.match(/^Session \d/)?.[0])).toEqual(['Session 1', 'Session 5', 'Session 2', 'Session 3', 'Session 4', 'Session 6']);
    expect(items[0]).toHaveTextContent('Session 1 · Budgeting');
    expect(items[0]).toHaveTextContent('Jan 7, 9:00 AM');
    // 2 active on the roster, both marked, 1 present.
    expect(items[0]).toHaveTextContent('2 of 2 marked, 50% attended');
    expect(items[1]).toHaveTextContent('Not taken');
    expect(items[5]).toHaveTextContent('No date set');
    expect(within(items[0]).getByRole('link', { name: 'Take attendance, Session 1' })).toHaveAttribute('href', '/takeattendance?id=ss1');
    // The spec's Upcoming Sessions panel keeps its first 3, and Quick Stats counts every one.
    const upcoming = within(screen.getByRole('heading', { name: 'Upcoming Sessions' }).parentElement!.parentElement!);
    expect(upcoming.getAllByText(/^Session \d$/)).toHaveLength(3);
  });

  it('shows a coach who is neither lead nor support no scheduling buttons and no attendance link', async () => {
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: COACH });
    await rows();
    expect(screen.queryByRole('button', { name: 'Add Session' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate weekly sessions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit Session/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete Session/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Take attendance/ })).not.toBeInTheDocument();
  });

  it('shows a support coach the attendance link but no scheduling buttons', async () => {
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: SUPPORT });
    await rows();
    expect(screen.getAllByRole('link', { name: /^Take attendance/ })).toHaveLength(6);
    expect(screen.queryByRole('button', { name: 'Add Session' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete Session/ })).not.toBeInTheDocument();
  });
});

describe('CohortDetail sessions, scheduled (issue #23.5)', () => {
  it("lets the lead coach add a session numbered next, asking 'Please enter …' first", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: LEAD });
    await user.click(await screen.findByRole('button', { name: 'Add Session' }));
    const form = within(screen.getByRole('form', { name: 'Add session' }));
    expect(form.getByLabelText('Session Number *')).toHaveValue(7);
    await user.click(form.getByRole('button', { name: 'Add Session' }));
    expect(form.getByText('Please enter a date and time')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Session Number *'));
    await user.type(form.getByLabelText('Session Number *'), '5');
    await user.click(form.getByRole('button', { name: 'Add Session' }));
    expect(form.getByText('Session 5 already exists. Please enter another number')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Session Number *'));
    await user.type(form.getByLabelText('Session Number *'), '7');
    await user.type(form.getByLabelText('Topic'), '  Investing ');
    await user.type(form.getByLabelText('Date and time *'), '2099-02-11T10:30');
    await user.click(form.getByRole('button', { name: 'Add Session' }));

    expect(await screen.findByText('Session created successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sessions (7)' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add session' })).not.toBeInTheDocument();
    const made = (await db.sessions.where('cohort_id').equals('c1').toArray()).find((s) => s.session_number === 7);
    expect(made).toMatchObject({ topic: 'Investing', scheduled_at: new Date(2099, 1, 11, 10, 30).toISOString() });
    expect((await rows())[5]).toHaveTextContent('Session 7 · Investing');
    expect(await db.outbox.where('entity').equals('Session').count()).toBe(1);
  });

  it('lets an admin edit a session inline', async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Edit Session 2' }));
    const form = within(screen.getByRole('form', { name: 'Edit Session 2' }));
    expect(form.getByLabelText('Topic')).toHaveValue('Credit');
    expect(form.getByLabelText('Date and time *')).toHaveValue('2099-01-14T09:00');
    await user.clear(form.getByLabelText('Topic'));
    await user.type(form.getByLabelText('Topic'), 'Credit reports');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Session updated successfully!')).toBeInTheDocument();
    expect(await db.sessions.get('ss2')).toMatchObject({ topic: 'Credit reports', session_number: 2 });
    await waitFor(async () => expect((await rows())[2]).toHaveTextContent('Session 2 · Credit reports'));
  });

  it("deletes a session without attendance after 'Are you sure?'", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: LEAD });
    await user.click(await screen.findByRole('button', { name: 'Delete Session 4' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Are you sure?')).toBeInTheDocument();
    expect(dialog.getByText(/This will permanently delete Session 4 \(Saving\), Jan 28, 9:00 AM\./)).toBeInTheDocument();
    expect(dialog.queryByText(/Attendance was taken/)).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Session deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sessions (5)' })).toBeInTheDocument();
    expect(await db.sessions.get('ss4')).toBeUndefined();
  });

  it('says so when a session has attendance, and shows the refusal when Delete is pressed anyway', async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: LEAD });
    await user.click(await screen.findByRole('button', { name: 'Delete Session 1' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/Attendance was taken at this session \(2 attendance records\)/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete session.')).toBeInTheDocument();
    expect(screen.getByText('Attendance was taken at this session (2 records). A session with attendance cannot be deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await db.sessions.get('ss1')).toBeDefined();
    expect(await db.outbox.count()).toBe(0);
  });

  it('generates weekly sessions: a preview of the dates, then created and numbered after the others', async () => {
    const user = userEvent.setup();
    await db.cohorts.update('c1', { start_date: '2099-03-02', end_date: '2099-03-31' });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Generate weekly sessions' }));
    const dialog = within(await screen.findByRole('dialog'));
    // From the cohort's start date (a Monday), on its weekday, as many weeks as fit.
    expect(dialog.getByLabelText('Starting from *')).toHaveValue('2099-03-02');
    expect(dialog.getByLabelText('Day of the week *')).toHaveValue('1');
    expect(dialog.getByLabelText('Number of sessions *')).toHaveValue(5);
    await user.selectOptions(dialog.getByLabelText('Day of the week *'), 'Tuesday');
    await user.clear(dialog.getByLabelText('Time *'));
    await user.type(dialog.getByLabelText('Time *'), '10:00');
    await user.clear(dialog.getByLabelText('Number of sessions *'));
    await user.type(dialog.getByLabelText('Number of sessions *'), '6');

    const preview = within(dialog.getByRole('region', { name: 'Preview' }));
    expect(preview.getByText('Preview: 5 sessions')).toBeInTheDocument();
    expect(preview.getByText('Only 5 of 6 fit before the end date (Mar 31, 2099).')).toBeInTheDocument();
    expect(preview.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Session 7Tue, Mar 3, 10:00 AM',
      'Session 8Tue, Mar 10, 10:00 AM',
      'Session 9Tue, Mar 17, 10:00 AM',
      'Session 10Tue, Mar 24, 10:00 AM',
      'Session 11Tue, Mar 31, 10:00 AM',
    ]);
    await user.click(dialog.getByRole('button', { name: 'Create 5 sessions' }));

    expect(await screen.findByText('5 sessions created successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sessions (11)' })).toBeInTheDocument();
    const made = (await db.sessions.where('cohort_id').equals('c1').toArray()).filter((s) => s.session_number! >= 7);
    expect(made.map((s) => s.session_number).sort((a, b) => a! - b!)).toEqual([7, 8, 9, 10, 11]);
    expect(made.find((s) => s.session_number === 7)?.scheduled_at).toBe(new Date(2099, 2, 3, 10, 0).toISOString());
  });

  it('points out planned days that already have a session of the cohort', async () => {
    const user = userEvent.setup();
    await db.cohorts.update('c1', { start_date: '2099-03-02', end_date: '2099-03-31' });
    await db.sessions.put({ id: 'ss-mar10', cohort_id: 'c1', session_number: 20, topic: 'Budgets', scheduled_at: new Date(2099, 2, 10, 9, 0).toISOString() });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Generate weekly sessions' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.selectOptions(dialog.getByLabelText('Day of the week *'), 'Tuesday');
    const preview = within(dialog.getByRole('region', { name: 'Preview' }));
    expect(preview.getByRole('status')).toHaveTextContent('1 of these days already has a session of this cohort');
    expect(preview.getAllByRole('listitem')[1]).toHaveTextContent('Same day as Session 20');
    await user.selectOptions(dialog.getByLabelText('Day of the week *'), 'Wednesday');
    expect(preview.queryByRole('status')).toBeNull();
  });

  it("asks for a number of sessions in the spec's words and creates nothing without one", async () => {
    const user = userEvent.setup();
    await db.cohorts.update('c1', { start_date: '2099-03-02', end_date: '2099-03-31' });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: LEAD });
    await user.click(await screen.findByRole('button', { name: 'Generate weekly sessions' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.clear(dialog.getByLabelText('Number of sessions *'));
    expect(dialog.getByText('Fill in the fields to see the dates.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Create 0 sessions' })).toBeDisabled();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await db.sessions.where('cohort_id').equals('c1').count()).toBe(6);
  });
});
