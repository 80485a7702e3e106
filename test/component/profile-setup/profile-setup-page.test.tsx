import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfileSetupPage } from '../../../src/screens/profile-setup/profile-setup-page';
import { PassageDB } from '../../../src/data/db';
import type { DataContext } from '../../../src/data/context';
import { makeDevice } from '../../support/device';
import { cacheCurrentUser } from '../../../src/data/session';
import type { User } from '../../../shared/entities';
import { renderPage } from '../render-page';

const newcoach: User = { id: 'n1', email: 'newcoach@example.org', full_name: 'Nell New', role: 'user', approved: false, requested_access_date: null };
let db: PassageDB;
/** The new coach's device, over its own database: the page renders on it. */
let data: DataContext;

beforeEach(async () => {
  db = new PassageDB(`profile-${Math.random()}`);
  data = makeDevice({ db, userId: newcoach.id, now: () => Date.parse('2026-11-22T10:00:00Z') }).data;
  await cacheCurrentUser(data, newcoach);
});

afterEach(async () => {
  cleanup();
  await db.delete();
});

// Typing and re-rendering in jsdom takes seconds on a busy 2-core box; 5 s would be flaky.
describe('ProfileSetup', { timeout: 20_000 }, () => {
  it('shows the welcome form with its sections and the note under the button', async () => {
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: newcoach });
    expect(await screen.findByText('Complete your coach profile to request access')).toBeInTheDocument();
    for (const legend of ['Personal Information', 'Professional Background', 'Emergency Contact']) {
      expect(screen.getByRole('group', { name: legend })).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Coach Type *')).toHaveValue('support_coach');
    expect(screen.getByLabelText('Phone Number *')).toHaveAttribute('type', 'tel');
    expect(screen.getByLabelText('Emergency Contact Phone')).toHaveAttribute('type', 'tel');
    expect(screen.getByLabelText('Years of Experience')).toHaveAttribute('min', '0');
    expect(screen.getByLabelText('LinkedIn Profile')).toHaveAttribute('type', 'url');
    expect(screen.getByLabelText('Professional Background *')).toHaveAttribute('rows', '4');
    expect(screen.getByText('Your profile will be reviewed by an administrator before you can access the database.')).toBeInTheDocument();
  });

  it('refuses to submit with a required field missing', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: newcoach });
    await user.type(await screen.findByLabelText('Phone Number *'), '555-0100');
    await user.type(screen.getByLabelText('Organization / Facility *'), 'Folsom State Prison');
    await user.click(screen.getByRole('button', { name: 'Request Access' }));
    // Inline (announced) and as a toast; the missing field is marked.
    await waitFor(() => expect(screen.getAllByText('Please fill in all required fields')).toHaveLength(2));
    expect(screen.getByLabelText('Professional Background *')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Phone Number *')).not.toHaveAttribute('aria-invalid');
    expect(await db.outbox.count()).toBe(0);
  });

  it('with every required field filled, a malformed LinkedIn address is named, not "required fields" (issue #12.6)', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: newcoach });
    await user.type(await screen.findByLabelText('Phone Number *'), '555-0100');
    await user.type(screen.getByLabelText('Organization / Facility *'), 'Folsom State Prison');
    await user.type(screen.getByLabelText('Professional Background *'), 'Reentry coach.');
    await user.type(screen.getByLabelText('LinkedIn Profile'), 'linkedin.com/in/nell');
    await user.click(screen.getByRole('button', { name: 'Request Access' }));
    const message = 'LinkedIn Profile: Enter a full web address, starting with https://';
    // Inline (announced) and as a toast; the field says it too and gets the focus.
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    // (A toast of the previous test may linger in sonner's store: check the form's own alert.)
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([message, 'Enter a full web address, starting with https://']);
    const linkedin = screen.getByLabelText('LinkedIn Profile');
    expect(linkedin).toHaveAttribute('aria-invalid', 'true');
    expect(linkedin).toHaveAccessibleDescription('Enter a full web address, starting with https://');
    await waitFor(() => expect(linkedin).toHaveFocus());
    expect(await db.outbox.count()).toBe(0);
  });

  it('submits the profile: saved with today as the request date, toast, then Access Pending Approval', async () => {
    const user = userEvent.setup({ delay: null });
    const { setUserSpy } = await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: newcoach });
    await user.selectOptions(await screen.findByLabelText('Coach Type *'), 'lead_coach');
    await user.type(screen.getByLabelText('Phone Number *'), '555-0100');
    await user.type(screen.getByLabelText('Organization / Facility *'), 'Folsom State Prison');
    await user.type(screen.getByLabelText('Years of Experience'), '6');
    await user.type(screen.getByLabelText('LinkedIn Profile'), 'https://linkedin.com/in/nell');
    await user.type(screen.getByLabelText('Professional Background *'), 'Financial coach since 2019.');
    await user.click(screen.getByRole('button', { name: 'Request Access' }));

    expect(await screen.findByText('Profile submitted! Waiting for admin approval.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Access Pending Approval' })).toBeInTheDocument();
    expect(setUserSpy).toHaveBeenCalledWith(expect.objectContaining({ coach_type: 'lead_coach', years_experience: 6 }));
    const saved = await db.users.get(newcoach.id);
    expect(saved).toMatchObject({ phone: '555-0100', organization: 'Folsom State Prison', linkedin_url: 'https://linkedin.com/in/nell' });
    expect(saved?.requested_access_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
  }, 20_000);

  it('a pending user sees the request date; an approved coach is sent to the Dashboard', async () => {
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: { ...newcoach, requested_access_date: '2026-11-20' } });
    expect(await screen.findByRole('heading', { name: 'Access Pending Approval' })).toBeInTheDocument();
    expect(screen.getByText('Profile submitted on:')).toBeInTheDocument();
    expect(screen.getByText(/Nov 20, 2026/)).toBeInTheDocument();
    cleanup();
    const { router } = await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: { ...newcoach, approved: true, requested_access_date: '2026-11-20' } });
    expect(await screen.findByText('Now on Dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('a rejected (or revoked) user sees that access was not granted and whom to contact, not "pending" (issue #12.5)', async () => {
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: { ...newcoach, role: 'guest', approved: false, requested_access_date: '2026-11-20' } });
    expect(await screen.findByRole('heading', { name: 'Access Not Granted' })).toBeInTheDocument();
    expect(screen.queryByText('Access Pending Approval')).not.toBeInTheDocument();
    expect(screen.getByText(/did not grant you access/)).toBeInTheDocument();
    expect(screen.getByText(/contact your program administrator/)).toBeInTheDocument();
    expect(screen.getByText(/Nov 20, 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Access' })).not.toBeInTheDocument();
  });

  it('a failed save says so and keeps the form', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<ProfileSetupPage />, { data, at: 'ProfileSetup', user: newcoach });
    // No signed-in user in the data layer: the command refuses (renderPage had set one).
    data.userId = null;
    await user.type(await screen.findByLabelText('Phone Number *'), '555-0100');
    await user.type(screen.getByLabelText('Organization / Facility *'), 'Folsom');
    await user.type(screen.getByLabelText('Professional Background *'), 'Coach.');
    const errorLog = console.error;
    console.error = () => undefined;
    await user.click(screen.getByRole('button', { name: 'Request Access' }));
    expect(await screen.findByText('Failed to submit profile. Please try again.')).toBeInTheDocument();
    console.error = errorLog;
    expect(screen.getByRole('button', { name: 'Request Access' })).toBeEnabled();
  });
});
