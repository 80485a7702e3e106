import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminApprovalsPage } from '../../../src/screens/admin-approvals/admin-approvals-page';
import { PassageDB } from '../../../src/data/db';
import type { DataContext } from '../../../src/data/context';
import { makeDevice } from '../../support/device';
import { createPlatformClient } from '../../../src/platform';
import type { User } from '../../../shared/entities';
import { renderPage } from '../render-page';

const admin: User = { id: 'a1', email: 'admin@example.org', full_name: 'Ada Admin', role: 'admin', approved: true, created_date: '2026-01-01T00:00:00Z' };
const seed = (): User[] => [
  {
    id: 'p1',
    email: 'pending@example.org',
    full_name: 'Pat Pending',
    phone: '555-0101',
    role: 'user',
    approved: false,
    requested_access_date: '2026-11-20',
    coach_type: 'lead_coach',
    organization: 'Folsom',
    years_experience: 6,
    linkedin_url: 'https://linkedin.com/in/pat',
    bio: 'Ten years of budgeting classes.',
    emergency_contact_name: 'Sam',
    emergency_contact_phone: '555-0199',
    created_date: '2026-11-19T00:00:00Z',
  },
  { id: 'r1', email: 'rejected@example.org', full_name: 'Rae Rejected', role: 'guest', approved: false, requested_access_date: '2026-10-01', created_date: '2026-10-01T00:00:00Z' },
  { id: 'c1', email: 'coach@example.org', full_name: 'Cora Coach', role: 'user', approved: true, requested_access_date: '2026-02-01', approval_date: '2026-02-03', approved_by: 'admin@example.org', created_date: '2026-02-01T00:00:00Z' },
  admin,
];

let db: PassageDB;
/** The admin's device, over its own database: the page renders on it. */
let data: DataContext;
let client: ReturnType<typeof fakeClient>;
let users: User[];
let failUpdates = false;
let listCalls = 0;
/** When set, the user list answers only after it resolves (to see the loading state). */
let listGate: Promise<void> | null = null;
let listUnreachable = false;
const puts: { id: string; body: Record<string, unknown> }[] = [];

function fakeClient() {
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    const put = url.match(/\/entities\/User\/([^/?]+)$/);
    if (init.method === 'PUT' && put) {
      if (failUpdates) return json(500, { message: 'Internal error' });
      const body = JSON.parse(String(init.body));
      puts.push({ id: put[1], body });
      users = users.map((u) => (u.id === put[1] ? { ...u, ...body } : u));
      return json(200, users.find((u) => u.id === put[1]));
    }
    if (url.includes('/entities/User')) {
      listCalls++;
      if (listUnreachable) throw new TypeError('Failed to fetch');
      if (listGate) await listGate;
      expect(url).toContain('sort=-created_date');
      return json(200, [...users].sort((a, b) => (b.created_date ?? '').localeCompare(a.created_date ?? '')));
    }
    return json(404, { message: 'Not found' });
  };
  return createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => 'T', fetch: fetch as typeof globalThis.fetch, originUrl: 'x' });
}

beforeEach(() => {
  users = seed();
  failUpdates = false;
  listCalls = 0;
  listGate = null;
  listUnreachable = false;
  puts.length = 0;
  db = new PassageDB(`approvals-${Math.random()}`);
  client = fakeClient();
  data = makeDevice({ db, userId: admin.id, client, now: () => Date.now() }).data;
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await db.delete();
});

const cards = () => screen.getAllByRole('article');

// Typing and re-rendering in jsdom takes seconds on a busy 2-core box; 5 s would be flaky.
describe('AdminApprovals', { timeout: 20_000 }, () => {
  it('non-admins are told they may not see it', async () => {
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: { ...admin, role: 'user' } });
    expect(await screen.findByText("You don't have permission to view this page")).toBeInTheDocument();
    expect(listCalls).toBe(0);
  });

  it('shows counts, the pending list by default (rejected users only under Rejected, issue #12.5), and the card details', async () => {
    let release!: () => void;
    listGate = new Promise((r) => (release = r));
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await screen.findByRole('heading', { name: 'Coach Profiles & Approvals' })).toBeInTheDocument();
    expect(screen.getByText('Review and approve reentry coach access requests')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading users' }).querySelectorAll('[data-testid="skeleton-card"]')).toHaveLength(3);
    release();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByLabelText('Show')).toHaveValue('pending');
    const stat = (label: string) => screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent;
    expect([stat('Pending'), stat('Approved'), stat('Rejected')]).toEqual(['1', '2', '1']);
    expect(screen.queryByRole('article', { name: 'Rae Rejected' })).not.toBeInTheDocument();

    const pat = screen.getByRole('article', { name: 'Pat Pending' });
    expect(within(pat).getByText('Pending')).toBeInTheDocument();
    expect(within(pat).getByText('lead coach')).toBeInTheDocument();
    expect(within(pat).getByText('6 years')).toBeInTheDocument();
    expect(within(pat).getByRole('link', { name: /LinkedIn Profile/ })).toHaveAttribute('target', '_blank');
    expect(within(pat).getByText('Registered: Nov 19, 2026')).toBeInTheDocument();
    expect(within(pat).getByText('Access Requested: Nov 20, 2026')).toBeInTheDocument();
    expect(within(pat).getByText('Sam • 555-0199')).toBeInTheDocument();
    for (const name of ['Reject', 'Approve as Coach', 'Approve as Admin']) expect(within(pat).getByRole('button', { name })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Show'), 'rejected');
    const rae = screen.getByRole('article', { name: 'Rae Rejected' });
    expect(within(rae).getByText('Rejected')).toBeInTheDocument();
    expect(within(rae).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(rae).getAllByText('Not specified')).toHaveLength(2); // coach type and organization
    expect(within(rae).queryByText(/Approved:/)).not.toBeInTheDocument();
    // A rejection can be reconsidered, not repeated.
    expect(within(rae).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve as Coach', 'Approve as Admin']);
  });

  it('Approve as Coach saves approval fields, toasts, and refreshes the list', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    const pat = await screen.findByRole('article', { name: 'Pat Pending' });
    await user.click(within(pat).getByRole('button', { name: 'Approve as Coach' }));
    expect(await screen.findByText('User approved successfully!')).toBeInTheDocument();
    expect(puts).toEqual([
      { id: 'p1', body: { approved: true, approval_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), approved_by: 'admin@example.org', role: 'user' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pat Pending' })).not.toBeInTheDocument());
    expect(listCalls).toBe(2);
    await user.selectOptions(screen.getByLabelText('Show'), 'approved');
    const approved = screen.getByRole('article', { name: 'Pat Pending' });
    expect(within(approved).getByText('Approved')).toBeInTheDocument();
    expect(within(approved).getByText(/^Approved: .* by admin@example.org$/)).toBeInTheDocument();
    expect(within(approved).getByRole('button', { name: 'Revoke Access' })).toBeInTheDocument();
    // Their own card offers no revoke: the server refuses changes to one's own access.
    expect(within(screen.getByRole('article', { name: 'Ada Admin' })).queryByRole('button')).not.toBeInTheDocument();
  });

  it('Reject and Revoke set guest with the revoke toast; Approve as Admin (of a rejected user) sets role admin', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    await user.click(within(await screen.findByRole('article', { name: 'Pat Pending' })).getByRole('button', { name: 'Reject' }));
    await screen.findByText('User access revoked');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pat Pending' })).not.toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Show'), 'rejected');
    expect(within(screen.getByRole('article', { name: 'Pat Pending' })).getByText('Rejected')).toBeInTheDocument();
    await user.click(within(screen.getByRole('article', { name: 'Rae Rejected' })).getByRole('button', { name: 'Approve as Admin' }));
    await screen.findByText('User approved successfully!');
    await user.selectOptions(screen.getByLabelText('Show'), 'approved');
    await user.click(within(screen.getByRole('article', { name: 'Cora Coach' })).getByRole('button', { name: 'Revoke Access' }));
    await waitFor(() => expect(puts).toHaveLength(3));
    expect(puts.map((p) => [p.id, p.body.role, p.body.approved])).toEqual([
      ['p1', 'guest', false],
      ['r1', 'admin', true],
      ['c1', 'guest', false],
    ]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Cora Coach' })).not.toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Show'), 'rejected');
    expect(screen.getByRole('article', { name: 'Cora Coach' })).toBeInTheDocument();
  });

  it('a decision about another person, made while the list refreshes after the last one, is carried out too', async () => {
    users = [...seed(), { id: 'r2', email: 'rob@example.org', full_name: 'Rob Rejected', role: 'guest', approved: false, requested_access_date: '2026-10-02', created_date: '2026-10-02T00:00:00Z' }];
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    await screen.findByRole('article', { name: 'Pat Pending' });
    await user.selectOptions(screen.getByLabelText('Show'), 'rejected');
    // The refresh after the first approval waits: the first decision is still under way.
    let open!: () => void;
    listGate = new Promise((resolve) => (open = resolve));
    await user.click(within(screen.getByRole('article', { name: 'Rae Rejected' })).getByRole('button', { name: 'Approve as Coach' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    await user.click(within(screen.getByRole('article', { name: 'Rob Rejected' })).getByRole('button', { name: 'Approve as Coach' }));
    open();
    listGate = null;
    await waitFor(() => expect(puts.map((p) => p.id)).toEqual(['r1', 'r2']), { timeout: 10_000 });
    expect(puts.map((p) => [p.body.role, p.body.approved])).toEqual([
      ['user', true],
      ['user', true],
    ]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Rob Rejected' })).not.toBeInTheDocument());
  });

  it('a failed update shows the failure toast and changes nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    failUpdates = true;
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    const pat = await screen.findByRole('article', { name: 'Pat Pending' });
    await user.click(within(pat).getByRole('button', { name: 'Approve as Coach' }));
    expect(await screen.findByText('Failed to approve user')).toBeInTheDocument();
    await user.click(within(pat).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Failed to update user')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Pat Pending' })).toBeInTheDocument();
  });

  it('offline, approvals are refused with the data layer message', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    const pat = await screen.findByRole('article', { name: 'Pat Pending' });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await user.click(within(pat).getByRole('button', { name: 'Approve as Coach' }));
    expect(await screen.findByText('You are offline. Approvals need a connection.')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });

  it('an empty list says No {filter} users', async () => {
    users = [admin];
    const user = userEvent.setup({ delay: null });
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await screen.findByText('No pending users')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Show'), 'rejected');
    expect(screen.getByText('No rejected users')).toBeInTheDocument();
  });

  it('reads through the data context\'s client, not a client the shell hands the page', async () => {
    data.client = null;
    await db.users.bulkPut(seed());
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    // No client in the data layer: the page cannot reach the server, whatever the shell holds.
    expect(await screen.findByText(/this is the list as this device last saw it/)).toBeInTheDocument();
    expect(listCalls).toBe(0);
  });

  it('with the server unreachable it shows the device copy and says so', async () => {
    listUnreachable = true;
    await db.users.bulkPut(seed());
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await screen.findByText(/this is the list as this device last saw it/)).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Pat Pending' })).toBeInTheDocument();
  });
});
