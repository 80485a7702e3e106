import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminApprovalsPage } from '../../../src/screens/admin-approvals/admin-approvals-page';
import { PassageDB } from '../../../src/data/db';
import type { DataContext } from '../../../src/data/context';
import { makeDevice } from '../../support/device';
import { createPlatformClient } from '../../../src/platform';
import type { User } from '../../../shared/entities';
import { renderPage } from '../render-page';

/**
 * The administrator's side of revocation (issue #21.2): the 'Signed-in tablets' panel of
 * AdminApprovals, against a fake server that answers the platform's functions as the contract says.
 */

const admin: User = { id: 'a1', email: 'admin@example.org', full_name: 'Ada Admin', role: 'admin', approved: true, created_date: '2026-01-01T00:00:00Z' };
const cora: User = { id: 'c1', email: 'cora@example.org', full_name: 'Cora Coach', role: 'user', approved: true, approval_date: '2026-02-03', created_date: '2026-02-01T00:00:00Z' };

interface Device {
  device_id: string;
  user_id: string;
  user_email: string;
  user_name: string;
  created_date: string;
  last_seen_date: string | null;
  last_release_date: string | null;
  revoked_date: string | null;
  revoked_reason: string | null;
  revoke_mode: 'flush' | 'erase' | null;
}

// Local times (no zone): the page shows them as they are, 'MMM d, h:mm a'.
const seedDevices = (): Device[] => [
  { device_id: 'CoraTab1xxxxxxxxxxxx', user_id: 'c1', user_email: 'cora@example.org', user_name: 'Cora Coach', created_date: '2026-03-04T09:05:00', last_seen_date: '2026-03-10T14:30:00', last_release_date: '2026-03-09T08:00:00', revoked_date: null, revoked_reason: null, revoke_mode: null },
  { device_id: 'AdaTab01xxxxxxxxxxxx', user_id: 'a1', user_email: 'admin@example.org', user_name: 'Ada Admin', created_date: '2026-03-02T10:00:00', last_seen_date: null, last_release_date: null, revoked_date: null, revoked_reason: null, revoke_mode: null },
  { device_id: 'CoraOld2xxxxxxxxxxxx', user_id: 'c1', user_email: 'cora@example.org', user_name: 'Cora Coach', created_date: '2026-01-15T16:45:00', last_seen_date: '2026-02-01T12:00:00', last_release_date: '2026-01-15T16:45:00', revoked_date: '2026-02-02T11:20:00', revoked_reason: 'Left on the bus', revoke_mode: 'flush' },
];

let db: PassageDB;
/** The admin's device, over its own database: the page renders on it. */
let data: DataContext;
let devices: Device[];
const calls: { name: string; body: Record<string, unknown> }[] = [];
/** When set, a function call answers with this status and body instead. */
let failWith: { name: string; status: number; body: unknown } | null = null;
let unreachable = false;

const listCalls = () => calls.filter((c) => c.name === 'listDevices').length;

function fakeClient() {
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    if (url.includes('/entities/User')) return json(200, [cora, admin]);
    const fn = url.match(/\/apps\/passage\/functions\/([A-Za-z]+)$/);
    if (!fn || init.method !== 'POST') return json(404, { message: 'Not found' });
    if (unreachable) throw new TypeError('Failed to fetch');
    const name = fn[1];
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    calls.push({ name, body });
    if (failWith?.name === name) return json(failWith.status, failWith.body);
    const now = '2026-03-11T15:00:00';
    switch (name) {
      case 'listDevices':
        return json(200, { devices });
      case 'revokeDevice':
        devices = devices.map((d) => (d.device_id === body.device_id ? { ...d, revoked_date: now, revoked_reason: (body.reason as string) ?? null, revoke_mode: 'flush' } : d));
        return json(200, { ok: true });
      case 'revokeUser': {
        const mine = devices.filter((d) => d.user_id === body.user_id);
        devices = devices.map((d) => (d.user_id === body.user_id && !d.revoked_date ? { ...d, revoked_date: now, revoked_reason: (body.reason as string) ?? null, revoke_mode: 'erase' } : d));
        return json(200, { ok: true, devices: mine.length });
      }
      default:
        return json(404, { message: 'Not found' });
    }
  };
  return createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => 'T', fetch: fetch as typeof globalThis.fetch, originUrl: 'x' });
}

beforeEach(() => {
  devices = seedDevices();
  calls.length = 0;
  failWith = null;
  unreachable = false;
  db = new PassageDB(`devices-${Math.random()}`);
  data = makeDevice({ db, userId: admin.id, client: fakeClient(), now: () => Date.now() }).data;
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await db.delete();
});

const panel = () => screen.getByRole('region', { name: 'Signed-in tablets' });
const coachGroup = (name: string) => within(panel()).getByRole('group', { name });
const tablet = (label: string) => within(panel()).getByRole('listitem', { name: label });

async function openPage() {
  const rendered = await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
  await screen.findByRole('group', { name: 'Cora Coach' });
  return rendered;
}

describe('AdminApprovals: Signed-in tablets', { timeout: 20_000 }, () => {
  it('lists every registered tablet by coach, with its dates and state, below the approvals', async () => {
    await openPage();
    // Below the existing content: the approvals' heading and list come first.
    const heading = screen.getByRole('heading', { name: 'Signed-in tablets' });
    expect(screen.getByRole('heading', { name: 'Coach Profiles & Approvals' }).compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Grouped by coach, the coach with the newest tablet first.
    expect(within(panel()).getAllByRole('group').map((g) => within(g).getByRole('heading').textContent)).toEqual(['Cora Coach', 'Ada Admin']);
    const coraGroup = coachGroup('Cora Coach');
    expect(within(coraGroup).getByText('cora@example.org')).toBeInTheDocument();
    expect(within(coraGroup).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['Tablet CoraTab1', 'Tablet CoraOld2']);

    const active = tablet('Tablet CoraTab1');
    expect(within(active).getByText('Active')).toBeInTheDocument();
    expect(within(active).getByText('Registered').nextElementSibling).toHaveTextContent('Mar 4, 9:05 AM');
    expect(within(active).getByText('Last seen').nextElementSibling).toHaveTextContent('Mar 10, 2:30 PM');
    expect(within(active).getByText('Last key release').nextElementSibling).toHaveTextContent('Mar 9, 8:00 AM');
    expect(within(active).getByRole('button', { name: 'Revoke tablet' })).toBeInTheDocument();

    const revoked = tablet('Tablet CoraOld2');
    expect(within(revoked).getByText('Revoked')).toBeInTheDocument();
    expect(within(revoked).getByText('Revoked Feb 2, 11:20 AM: Left on the bus')).toBeInTheDocument();
    expect(within(revoked).queryByRole('button')).not.toBeInTheDocument();

    // A tablet never seen nor given a key says so.
    const own = tablet('Tablet AdaTab01');
    expect(within(own).getByText('Last seen').nextElementSibling).toHaveTextContent('Never');
    expect(within(own).getByText('Last key release').nextElementSibling).toHaveTextContent('Never');

    expect(within(coraGroup).getByRole('button', { name: "Revoke all of this coach's tablets" })).toBeInTheDocument();
    // The server refuses to revoke oneself: no such button on the administrator's own group.
    const adaGroup = coachGroup('Ada Admin');
    expect(within(adaGroup).getByText('This is your account.')).toBeInTheDocument();
    expect(within(adaGroup).queryByRole('button', { name: "Revoke all of this coach's tablets" })).not.toBeInTheDocument();
    expect(calls).toEqual([{ name: 'listDevices', body: {} }]);
  });

  it('Revoke tablet asks first, then revokes with the reason, toasts and refreshes the list', async () => {
    const user = userEvent.setup({ delay: null });
    await openPage();
    await user.click(within(tablet('Tablet CoraTab1')).getByRole('button', { name: 'Revoke tablet' }));

    const dialog = await screen.findByRole('dialog', { name: "Revoke Cora Coach's tablet CoraTab1?" });
    expect(within(dialog).getByText('It sends any changes still waiting, then erases its copy at its next connection.')).toBeInTheDocument();
    expect(calls.filter((c) => c.name === 'revokeDevice')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason (shown on the tablet)'), '  Reported lost  ');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke tablet' }));

    expect(await screen.findByText("Cora Coach's tablet CoraTab1 revoked")).toBeInTheDocument();
    expect(calls.filter((c) => c.name === 'revokeDevice')).toEqual([{ name: 'revokeDevice', body: { device_id: 'CoraTab1xxxxxxxxxxxx', reason: 'Reported lost' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(tablet('Tablet CoraTab1')).getByText('Revoked Mar 11, 3:00 PM: Reported lost')).toBeInTheDocument());
    expect(within(tablet('Tablet CoraTab1')).queryByRole('button', { name: 'Revoke tablet' })).not.toBeInTheDocument();
    expect(listCalls()).toBe(2);
  });

  it("Revoke all of this coach's tablets explains what is lost, revokes the coach and refreshes", async () => {
    const user = userEvent.setup({ delay: null });
    await openPage();
    await user.click(within(coachGroup('Cora Coach')).getByRole('button', { name: "Revoke all of this coach's tablets" }));

    const dialog = await screen.findByRole('dialog', { name: "Revoke all of Cora Coach's tablets?" });
    expect(
      within(dialog).getByText(
        'Every tablet of this coach erases its copy at its next connection, and every sign-in of this coach ends. Changes still waiting on those tablets are lost.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason (shown on the tablet)')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke all tablets' }));

    expect(await screen.findByText("All of Cora Coach's tablets revoked")).toBeInTheDocument();
    // No reason typed: none is sent (the server then uses its default sentence).
    expect(calls.filter((c) => c.name === 'revokeUser')).toEqual([{ name: 'revokeUser', body: { user_id: 'c1' } }]);
    await waitFor(() => expect(within(tablet('Tablet CoraTab1')).getByText('Revoked Mar 11, 3:00 PM')).toBeInTheDocument());
    expect(within(coachGroup('Cora Coach')).queryByRole('button', { name: 'Revoke tablet' })).not.toBeInTheDocument();
    // The administrator's own tablet is untouched.
    expect(within(tablet('Tablet AdaTab01')).getByText('Active')).toBeInTheDocument();
    expect(listCalls()).toBe(2);
  });

  it('Cancel closes the question and revokes nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await openPage();
    await user.click(within(tablet('Tablet CoraTab1')).getByRole('button', { name: 'Revoke tablet' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason (shown on the tablet)'), 'typo');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(coachGroup('Cora Coach')).getByRole('button', { name: "Revoke all of this coach's tablets" }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(calls).toEqual([{ name: 'listDevices', body: {} }]);
    expect(within(tablet('Tablet CoraTab1')).getByText('Active')).toBeInTheDocument();
    // A new question starts with an empty reason.
    await user.click(within(tablet('Tablet CoraTab1')).getByRole('button', { name: 'Revoke tablet' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Reason (shown on the tablet)')).toHaveValue('');
  });

  it('offline, the panel says tablets can be managed when online, and lists them once back online', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await within(panel()).findByText('Tablets can be managed when online.')).toBeInTheDocument();
    expect(within(panel()).queryByRole('button')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);

    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await within(panel()).findByRole('group', { name: 'Cora Coach' })).toBeInTheDocument();
    expect(within(panel()).queryByText('Tablets can be managed when online.')).not.toBeInTheDocument();
  });

  it('with the server unreachable the panel says the same, and a revoke that cannot reach it says so too', async () => {
    unreachable = true;
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await within(panel()).findByText('Tablets can be managed when online.')).toBeInTheDocument();

    unreachable = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await within(panel()).findByRole('group', { name: 'Cora Coach' });
    const user = userEvent.setup({ delay: null });
    await user.click(within(tablet('Tablet CoraTab1')).getByRole('button', { name: 'Revoke tablet' }));
    unreachable = true;
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke tablet' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Tablets can be managed when online.');
  });

  it("shows the server's message when a revocation is refused, and keeps the question open", async () => {
    failWith = { name: 'revokeUser', status: 403, body: { code: 'FORBIDDEN', message: 'Only an administrator can revoke a coach.' } };
    const user = userEvent.setup({ delay: null });
    await openPage();
    await user.click(within(coachGroup('Cora Coach')).getByRole('button', { name: "Revoke all of this coach's tablets" }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason (shown on the tablet)'), 'Contract ended');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke all tablets' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only an administrator can revoke a coach.');
    expect(within(dialog).getByLabelText('Reason (shown on the tablet)')).toHaveValue('Contract ended');
    expect(within(tablet('Tablet CoraTab1')).getByText('Active')).toBeInTheDocument();
    expect(listCalls()).toBe(1);

    // Once the server accepts, the same question goes through.
    failWith = null;
    await user.click(within(dialog).getByRole('button', { name: 'Revoke all tablets' }));
    expect(await screen.findByText("All of Cora Coach's tablets revoked")).toBeInTheDocument();
    expect(calls.filter((c) => c.name === 'revokeUser').at(-1)?.body).toEqual({ user_id: 'c1', reason: 'Contract ended' });
  });

  it("shows the server's message when the list cannot be read", async () => {
    failWith = { name: 'listDevices', status: 500, body: { error: { code: 'INTERNAL', message: 'Device store unavailable' } } };
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await within(panel()).findByRole('alert')).toHaveTextContent('Could not load tablets: Device store unavailable');
    expect(within(panel()).queryByText('No tablets registered yet')).not.toBeInTheDocument();
  });

  it('says so when no tablet is registered', async () => {
    devices = [];
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: admin });
    expect(await within(panel()).findByText('No tablets registered yet')).toBeInTheDocument();
  });

  it('non-admins see no tablets and nothing is asked of the server', async () => {
    await renderPage(<AdminApprovalsPage />, { data, at: 'AdminApprovals', user: { ...cora } });
    expect(await screen.findByText("You don't have permission to view this page")).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Signed-in tablets' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
