import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { todayISO } from '../../../src/domain/format';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { clearDb, renderPage } from '../render-page';
import { seedCohort } from './seed';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(async () => {
  await clearDb();
  await seedCohort();
});
afterEach(cleanup);

async function openEnrol() {
  const user = userEvent.setup();
  await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
  await screen.findByText('Enrolled Participants (2 active)');
  await user.click(screen.getByRole('button', { name: 'Enroll Participant' }));
  return user;
}

const results = () => screen.queryByRole('list', { name: 'Matching participants' });

describe('CohortDetailPage (spec 2.10): enrol', () => {
  it('searches names and UIDs only while typing and excludes active members of this cohort', async () => {
    const user = await openEnrol();
    const search = screen.getByPlaceholderText('Search by name or UID...');
    expect(screen.getByLabelText('Search Participant')).toBe(search);
    expect(results()).not.toBeInTheDocument();
    await user.type(search, 'MAR');
    // Maria Lopez is actively enrolled; Marisol (withdrawn) may enrol again (spec 4).
    const names = within(results()!).getAllByRole('button').map((b) => b.textContent);
    expect(names).toHaveLength(2);
    expect(names[0]).toContain('James Mariano');
    expect(names[0]).toContain('UID: RA-002');
    expect(names[0]).toContain('released');
    expect(names[1]).toContain('Marisol Ortega');
    expect(names[1]).toContain('in custody');
    await user.clear(search);
    await user.type(search, 'ra-003');
    expect(within(results()!).getAllByRole('button')).toHaveLength(1);
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(screen.getByText('No participants found')).toBeInTheDocument();
  });

  it('selects a result, enrols with today as the intake date, and lists the participant', async () => {
    const user = await openEnrol();
    const enrol = () => screen.getAllByRole('button', { name: 'Enroll Participant' }).find((b) => b.getAttribute('type') === 'submit')!;
    expect(enrol()).toBeDisabled();
    expect(screen.getByLabelText('Intake Date')).toHaveValue(todayISO());
    await user.type(screen.getByLabelText('Search Participant'), 'marisol');
    await user.click(within(results()!).getByRole('button', { name: /Marisol Ortega/ }));
    expect(screen.getByLabelText('Search Participant')).toHaveValue('Marisol Ortega');
    expect(results()).not.toBeInTheDocument();
    expect(enrol()).toBeEnabled();
    await user.click(enrol());

    expect(await screen.findByText('Participant enrolled successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Enrolled Participants (3 active)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Marisol Ortega/ })).toHaveAttribute('href', '/participantdetail?id=p3');
    expect(screen.queryByLabelText('Search Participant')).not.toBeInTheDocument();
    const created = (await db.enrollments.where('participant_id').equals('p3').toArray()).find((e) => e.enrollment_status === 'active');
    expect(created).toMatchObject({ cohort_id: 'c1', intake_date: todayISO() });
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Enrollment', kind: 'create', record_id: created!.id });
  });

  it('typing again after choosing clears the choice', async () => {
    const user = await openEnrol();
    await user.type(screen.getByLabelText('Search Participant'), 'james');
    await user.click(within(results()!).getByRole('button', { name: /James Mariano/ }));
    await user.type(screen.getByLabelText('Search Participant'), 'x');
    const submit = screen.getAllByRole('button', { name: 'Enroll Participant' }).find((b) => b.getAttribute('type') === 'submit')!;
    expect(submit).toBeDisabled();
  });

  it('Cancel closes the panel without enrolling', async () => {
    const user = await openEnrol();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Search Participant')).not.toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);
  });

  it('caps results at 50 with a note when more match', async () => {
    await db.participants.bulkPut(
      Array.from({ length: 120 }, (_, i) => ({ id: `bulk${i}`, first_name: `Pat${i}`, last_name: 'Bulk', academy_uid: `B-${i}` })),
    );
    const user = await openEnrol();
    await user.type(screen.getByLabelText('Search Participant'), 'bulk');
    expect(within(results()!).getAllByRole('button')).toHaveLength(50);
    expect(screen.getByText('Showing first 50 of 120 matches — keep typing to narrow the list')).toBeInTheDocument();
  });
});

describe('CohortDetailPage (spec 2.10): unenrol', () => {
  it("asks first, then withdraws the enrollment (never deletes it) and toasts 'Participant unenrolled'", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    await user.click(await screen.findByRole('button', { name: 'Unenroll Maria Lopez' }));
    // Issue #12.1: the X only asks; nothing is queued until the coach confirms.
    const dialog = await screen.findByRole('dialog', { name: 'Unenroll Maria Lopez?' });
    expect(dialog).toHaveTextContent('will be marked withdrawn from FL-SQ-2025Q1');
    expect(await db.outbox.count()).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Unenroll' }));
    expect(await screen.findByText('Participant unenrolled')).toBeInTheDocument();
    expect(await screen.findByText('Enrolled Participants (1 active)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Maria Lopez/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await db.enrollments.get('e1')).toMatchObject({ enrollment_status: 'withdrawn' });
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Enrollment', kind: 'update', record_id: 'e1', data: { enrollment_status: 'withdrawn' } });

    await user.click(screen.getByRole('button', { name: 'Unenroll Ann Smith' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unenroll' }));
    expect(await screen.findByText('No participants enrolled yet')).toBeInTheDocument();
  });

  it('Cancel in the confirmation keeps the participant enrolled and queues nothing (issue #12.1)', async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    await user.click(await screen.findByRole('button', { name: 'Unenroll Maria Lopez' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Enrolled Participants (2 active)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Maria Lopez/ })).toBeInTheDocument();
    expect(await db.enrollments.get('e1')).toMatchObject({ enrollment_status: 'active' });
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('CohortDetailPage: capacity (issue #12.2)', () => {
  async function pickMarisol(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText('Search Participant'), 'marisol');
    await user.click(within(results()!).getByRole('button', { name: /Marisol Ortega/ }));
    const submit = screen.getAllByRole('button', { name: 'Enroll Participant' }).find((b) => b.getAttribute('type') === 'submit')!;
    await user.click(submit);
  }

  it('a full cohort says so in the enrol panel and asks before enrolling past capacity; "Enrol anyway" enrols', async () => {
    await db.cohorts.update('c1', { capacity: 2 });
    const user = await openEnrol();
    expect(screen.getByText('This cohort is full').parentElement).toHaveTextContent('This cohort is full (2 / 2 active). Enrolling another participant goes past its capacity.');
    await pickMarisol(user);
    const dialog = await screen.findByRole('dialog', { name: 'This cohort is full' });
    expect(dialog).toHaveTextContent('FL-SQ-2025Q1 already has 2 active participants for 2 places. Enrolling Marisol Ortega takes it to 3 / 2.');
    expect(await db.outbox.count()).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Enrol anyway' }));
    expect(await screen.findByText('Participant enrolled successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Enrolled Participants (3 active)')).toBeInTheDocument();
    expect(await db.outbox.count()).toBe(1);
  });

  it('Cancel on the capacity warning enrols nobody', async () => {
    await db.cohorts.update('c1', { capacity: 2 });
    const user = await openEnrol();
    await pickMarisol(user);
    await user.click(within(await screen.findByRole('dialog', { name: 'This cohort is full' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Enrolled Participants (2 active)')).toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);
  });

  it('a cohort with room (or no capacity) enrols without asking', async () => {
    await db.cohorts.update('c1', { capacity: null });
    const user = await openEnrol();
    expect(screen.queryByText(/This cohort is full/)).not.toBeInTheDocument();
    await pickMarisol(user);
    expect(await screen.findByText('Participant enrolled successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
