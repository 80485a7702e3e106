import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { AddCohortPage } from '../../../src/screens/add-cohort/add-cohort-page';
import { clearDb, pageData, renderPage } from '../render-page';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(async () => {
  await clearDb();
  await db.programs.bulkPut([
    { id: 'pr1', program_name: 'Financial Literacy Basics', active: true },
    { id: 'pr2', program_name: 'Retired Program', active: false },
  ]);
  await db.sites.bulkPut([
    { id: 's1', site_name: 'San Quentin Prison', site_type: 'prison', active: true },
    { id: 's2', site_name: 'Closed Camp', site_type: 'fire_camp', active: false },
  ]);
  await db.users.bulkPut([
    { id: 'u1', email: 'lee@example.org', full_name: 'Lee Park' },
    { id: 'u2', email: 'noname@example.org', full_name: null },
  ]);
});
afterEach(cleanup);

async function open() {
  const result = await renderPage(<AddCohortPage />, { at: 'AddCohort' });
  await screen.findByRole('option', { name: 'Financial Literacy Basics' });
  return result;
}

describe('AddCohortPage (spec 2.9)', () => {
  it('shows the header and offers only active programs and sites', async () => {
    await open();
    expect(screen.getByRole('heading', { name: 'Create New Cohort' })).toBeInTheDocument();
    expect(screen.getByText('Set up a new program cohort')).toBeInTheDocument();
    const program = screen.getByLabelText('Program *');
    expect(within(program).queryByRole('option', { name: 'Retired Program' })).not.toBeInTheDocument();
    const site = screen.getByLabelText('Site *');
    expect(within(site).getByRole('option', { name: 'San Quentin Prison' })).toBeInTheDocument();
    expect(within(site).queryByRole('option', { name: 'Closed Camp' })).not.toBeInTheDocument();
  });

  it('has the defaults: capacity 20, status planned, the code hint, lead coaches as "full_name (email)"', async () => {
    await open();
    expect(screen.getByLabelText('Capacity')).toHaveValue(20);
    expect(screen.getByLabelText('Capacity')).toHaveAttribute('min', '1');
    expect(screen.getByLabelText('Status')).toHaveValue('planned');
    expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['planned', 'active', 'completed']);
    expect(screen.getByText('Unique identifier for this cohort')).toBeInTheDocument();
    expect(screen.getByText('Coaching Staff')).toBeInTheDocument();
    const lead = screen.getByLabelText('Lead Coach');
    expect(await within(lead).findByRole('option', { name: 'Lee Park (lee@example.org)' })).toHaveValue('lee@example.org');
    expect(within(lead).getByRole('option', { name: 'noname@example.org' })).toBeInTheDocument();
  });

  it("enables 'Generate' only with program, site and start date, then fills the code", async () => {
    const user = userEvent.setup();
    await open();
    const generate = screen.getByRole('button', { name: 'Generate' });
    expect(generate).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    expect(generate).toBeDisabled();
    await user.type(screen.getByLabelText('Start Date *'), '2025-05-20');
    expect(generate).toBeEnabled();
    await user.click(generate);
    expect(screen.getByLabelText('Cohort Code *')).toHaveValue('FLB-SQP-2025Q2');
  });

  it('keeps Create disabled until program, site, code and start date are set, then creates and goes to Cohorts', async () => {
    const user = userEvent.setup();
    await open();
    const create = screen.getByRole('button', { name: 'Create Cohort' });
    expect(create).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    await user.type(screen.getByLabelText('Start Date *'), '2025-01-06');
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Cohort Code *'), '   ');
    expect(create).toBeDisabled();
    await user.clear(screen.getByLabelText('Cohort Code *'));
    await user.type(screen.getByLabelText('Cohort Code *'), 'FLB-SQP-2025Q1');
    await user.clear(screen.getByLabelText('Capacity'));
    await user.type(screen.getByLabelText('Capacity'), '15');
    await user.selectOptions(screen.getByLabelText('Status'), 'active');
    await user.type(screen.getByLabelText('Schedule Notes'), 'Tuesdays 9am');
    await user.selectOptions(screen.getByLabelText('Lead Coach'), 'lee@example.org');
    expect(create).toBeEnabled();
    await user.click(create);

    expect(await screen.findByText('Cohort created successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Now on Cohorts')).toBeInTheDocument();
    const [row] = await db.cohorts.toArray();
    expect(row).toMatchObject({
      program_id: 'pr1',
      site_id: 's1',
      cohort_code: 'FLB-SQP-2025Q1',
      start_date: '2025-01-06',
      end_date: null,
      capacity: 15,
      status: 'active',
      schedule_notes: 'Tuesdays 9am',
      lead_coach_email: 'lee@example.org',
      support_coach_emails: [],
    });
    expect(row.id).toMatch(/^local-/);
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ entity: 'Cohort', kind: 'create', record_id: row.id });
  });

  it('rejects a capacity below 1 and an end date before the start', async () => {
    const user = userEvent.setup();
    await open();
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    await user.type(screen.getByLabelText('Start Date *'), '2025-03-01');
    await user.type(screen.getByLabelText('End Date'), '2025-02-01');
    await user.type(screen.getByLabelText('Cohort Code *'), 'X');
    await user.clear(screen.getByLabelText('Capacity'));
    await user.type(screen.getByLabelText('Capacity'), '0');
    await user.click(screen.getByRole('button', { name: 'Create Cohort' }));
    expect(await screen.findByText('Capacity must be at least 1')).toBeInTheDocument();
    expect(screen.getByText('End date must be on or after the start date')).toBeInTheDocument();
    expect(await db.cohorts.count()).toBe(0);
  });

  it("shows 'Failed to create cohort' and stays when the write fails", async () => {
    const user = userEvent.setup();
    await open();
    // The next temporary id collides with an existing row, so the create transaction aborts.
    pageData().newUuid = () => 'fixed';
    await db.cohorts.put({ id: 'local-fixed', program_id: 'x', site_id: 'y', cohort_code: 'TAKEN' });
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    await user.type(screen.getByLabelText('Start Date *'), '2025-03-01');
    await user.type(screen.getByLabelText('Cohort Code *'), 'NEW');
    await user.click(screen.getByRole('button', { name: 'Create Cohort' }));
    expect(await screen.findByText('Failed to create cohort')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Cohort' })).toBeEnabled();
    expect(screen.queryByText('Now on Cohorts')).not.toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);
  });

  it('Generate picks the next free suffix when cohorts already hold the code (issue #12.3)', async () => {
    await db.cohorts.bulkPut([
      { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FLB-SQP-2025Q2' },
      { id: 'c2', program_id: 'pr1', site_id: 's1', cohort_code: 'flb-sqp-2025q2-2' },
    ]);
    const user = userEvent.setup();
    await open();
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    await user.type(screen.getByLabelText('Start Date *'), '2025-05-20');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(screen.getByLabelText('Cohort Code *')).toHaveValue('FLB-SQP-2025Q2-3');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Cohort' })).toBeEnabled();
  });

  it('refuses a code another cohort uses with a message on the field (issue #12.3)', async () => {
    await db.cohorts.put({ id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FLB-SQP-2025Q1' });
    const user = userEvent.setup();
    await open();
    await user.selectOptions(screen.getByLabelText('Program *'), 'pr1');
    await user.selectOptions(screen.getByLabelText('Site *'), 's1');
    await user.type(screen.getByLabelText('Start Date *'), '2025-01-06');
    await user.type(screen.getByLabelText('Cohort Code *'), ' flb-sqp-2025q1');
    const message = 'Another cohort already uses the code flb-sqp-2025q1. Cohort codes must be unique.';
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Cohort Code *')).toHaveAccessibleDescription(message);
    expect(screen.queryByText('Unique identifier for this cohort')).not.toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create Cohort' });
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Cohort Code *'), '-B');
    expect(create).toBeEnabled();
    await user.click(create);
    expect(await screen.findByText('Cohort created successfully!')).toBeInTheDocument();
    expect(await db.cohorts.count()).toBe(2);
  });

  it('pre-selects the program given as ?program_id= (ProgramDetail\'s Create First Cohort, issue #12.8)', async () => {
    await renderPage(<AddCohortPage />, { at: 'AddCohort', search: { program_id: 'pr1' } });
    await screen.findByRole('option', { name: 'Financial Literacy Basics' });
    expect(screen.getByLabelText('Program *')).toHaveValue('pr1');
  });

  it('offers approved coaches and admins only as Lead Coach (issue #12.8)', async () => {
    await db.users.bulkPut([
      { id: 'u3', email: 'pending@example.org', full_name: 'Pat Pending', role: 'user', approved: false, requested_access_date: '2025-01-01' },
      { id: 'u4', email: 'rejected@example.org', full_name: 'Rae Rejected', role: 'guest', approved: false },
      { id: 'u5', email: 'coach@example.org', full_name: 'Cora Coach', role: 'user', approved: true },
      { id: 'u6', email: 'admin@example.org', full_name: 'Ada Admin', role: 'admin' },
    ]);
    await open();
    const lead = screen.getByLabelText('Lead Coach');
    await within(lead).findByRole('option', { name: 'Cora Coach (coach@example.org)' });
    // u1 and u2 are what a coach's mirror holds: the server lists only approved users to coaches.
    expect(within(lead).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select lead coach',
      'Ada Admin (admin@example.org)',
      'Cora Coach (coach@example.org)',
      'Lee Park (lee@example.org)',
      'noname@example.org',
    ]);
  });

  it('Cancel returns to Cohorts', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Now on Cohorts')).toBeInTheDocument();
  });
});
