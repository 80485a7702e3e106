import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { confirmLogout } from '../../../src/pwa/confirm-logout';

afterEach(cleanup);

describe('confirmLogout (S11)', () => {
  it('resolves true at once when nothing is pending, showing nothing', async () => {
    expect(await confirmLogout(0)).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks, naming the count; Log out anyway resolves true and removes the dialog', async () => {
    const answer = confirmLogout(3);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('You have 3 changes that have not reached the server');
    await userEvent.click(screen.getByRole('button', { name: 'Log out anyway' }));
    expect(await answer).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Stay signed in resolves false', async () => {
    const answer = confirmLogout(1);
    await screen.findByRole('dialog');
    expect(screen.getByRole('dialog')).toHaveTextContent('You have 1 change that has not reached the server');
    await userEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(await answer).toBe(false);
  });
});
