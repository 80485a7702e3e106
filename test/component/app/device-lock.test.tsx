import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderShell } from './render-shell';
import { USERS } from './fake-platform';

afterEach(cleanup);

const signedIn = { me: USERS.coach };

/** Issue #14: the shell's device-lock screens; the vault itself is tested in unit and browser tests. */
describe('device lock screens', { timeout: 20_000 }, () => {
  it('after the first sign-in here: a PIN of the allowed length, typed twice, opens the app and starts sync', async () => {
    const { env } = renderShell('/', signedIn, { lock: 'set-pin' });
    expect(await screen.findByRole('heading', { name: 'Set a PIN for this tablet' })).toBeInTheDocument();
    expect(screen.getByText(/at least 8 digits/)).toBeInTheDocument();
    expect(env.sync.start).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText('PIN'), '1234567');
    await userEvent.type(screen.getByLabelText('Confirm PIN'), '1234567');
    await userEvent.click(screen.getByRole('button', { name: 'Save PIN' }));
    expect(await screen.findByText('The PIN must be at least 8 digits.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('PIN'));
    await userEvent.type(screen.getByLabelText('PIN'), '12345678');
    await userEvent.click(screen.getByRole('button', { name: 'Save PIN' }));
    expect(await screen.findByText('The two PINs do not match.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Confirm PIN'));
    await userEvent.type(screen.getByLabelText('Confirm PIN'), '12345678');
    await userEvent.click(screen.getByRole('button', { name: 'Save PIN' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(env.vault.chooseDevicePin).toHaveBeenCalledWith('12345678', { withAuthenticator: false });
    await waitFor(() => expect(env.sync.start).toHaveBeenCalledTimes(1));
  });

  it('locked: nothing of the app and no sync until the right PIN; a wrong one says how many tries are left', async () => {
    const { env } = renderShell('/', signedIn, { lock: 'locked' });
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard page' })).toBeNull();
    env.vault.unlockDevice.mockResolvedValueOnce({ ok: false, reason: 'wrong', attemptsLeft: 9, retryAt: null });
    await userEvent.type(screen.getByLabelText('PIN'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Wrong PIN. 9 tries left.')).toBeInTheDocument();
    expect(env.sync.start).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText('PIN'), '24681357');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(env.vault.unlockDevice).toHaveBeenLastCalledWith('24681357');
    await waitFor(() => expect(env.sync.start).toHaveBeenCalledTimes(1));
  });

  it('before the last try it names the unsent changes; the tenth wrong PIN keeps the data and asks for a password sign-in', async () => {
    const { env } = renderShell('/', signedIn, {
      lock: 'locked',
      lockInfo: { failedAttempts: 9, pending: 3, pendingKinds: [{ entity: 'Participant', count: 2 }, { entity: 'Enrollment', count: 1 }] },
    });
    expect(
      await screen.findByText(/One more wrong PIN and the PIN stops opening this tablet.*2 changes to participants and 1 to an enrollment cannot be sent/),
    ).toBeInTheDocument();
    env.vault.unlockDevice.mockResolvedValueOnce({ ok: false, reason: 'pin-destroyed' });
    await userEvent.type(screen.getByLabelText('PIN'), '00000000');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { name: 'The PIN no longer opens this tablet' })).toBeInTheDocument();
    expect(env.session.clearLocalData).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(env.clearToken).toHaveBeenCalled();
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?from_url=.*&code_challenge=/)));
  });

  it('says whose tablet it is: the coach directory’s name and e-mail, nothing of a participant (issue #23.9)', async () => {
    renderShell('/', signedIn, { lock: 'locked', lockInfo: { owner: { name: 'Cora Coach', email: 'coach@example.org' }, pending: 2, pendingKinds: [{ entity: 'Participant', count: 2 }] } });
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    const owner = await screen.findByTestId('tablet-owner');
    expect(owner).toHaveTextContent('Cora Coach’s tablet');
    expect(owner).toHaveTextContent('coach@example.org');
    cleanup();
    // No directory entry: no name line at all.
    renderShell('/', signedIn, { lock: 'locked' });
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    expect(screen.queryByTestId('tablet-owner')).toBeNull();
  });

  it('a toast shown before Lock is gone from the lock screen and does not come back over it (issue #23.9)', async () => {
    renderShell('/', signedIn);
    await screen.findByRole('heading', { name: 'Dashboard page' });
    const { toast } = await import('sonner');
    // The outlet (sonner's section) comes in its own chunk once the first page is shown.
    const outlet = () => document.querySelector('section[aria-label^="Notifications"]');
    await waitFor(() => expect(outlet()).not.toBeNull());
    act(() => void toast.warning('Keep Passage data on this tablet?', { duration: Infinity }));
    expect(await screen.findByText('Keep Passage data on this tablet?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Keep Passage data on this tablet?')).toBeNull());
    act(() => void toast('Another toast while locked'));
    expect(outlet()).toBeNull();
    expect(screen.queryByText('Another toast while locked')).toBeNull();
  });

  it('a start on a locked tablet with no sign-in in memory asks its owner for the PIN and calls no API first', async () => {
    const { env, calls } = renderShell('/', signedIn, { token: null, lock: 'locked', lockedOwner: { id: USERS.coach.id, email: '' } });
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    expect(env.vault.openDeviceLock).toHaveBeenCalledWith({ userId: USERS.coach.id, fresh: false });
    expect(calls.some((c) => c.url.includes('/entities/User/me'))).toBe(false);
  });

  it('Lock in the header locks at once and stops sync; Forgot your PIN? keeps the data and goes to sign-in', async () => {
    const { env } = renderShell('/', signedIn);
    await screen.findByRole('heading', { name: 'Dashboard page' });
    await waitFor(() => expect(env.sync.start).toHaveBeenCalledTimes(1));
    await userEvent.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByRole('heading', { name: 'Passage is locked' })).toBeInTheDocument();
    expect(env.vault.lockDevice).toHaveBeenCalled();
    await waitFor(() => expect(env.sync.stop).toHaveBeenCalled());

    await userEvent.click(screen.getByRole('button', { name: 'Forgot your PIN?' }));
    expect(env.vault.askPinReset).toHaveBeenCalled();
    expect(env.clearToken).toHaveBeenCalled();
    expect(env.session.clearLocalData).not.toHaveBeenCalled();
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?from_url=/)));
  });
});
