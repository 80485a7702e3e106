import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { AppToaster } from '../../../src/app/app-toaster';

afterEach(() => {
  toast.dismiss();
  cleanup();
});

it('shows at most 20 toasts at once (spec 2.17), default and destructive variants', async () => {
  render(<AppToaster />);
  act(() => {
    for (let i = 1; i <= 25; i++) toast(`Saved ${i}`, { duration: Infinity });
    toast.error('Failed to add participant', { duration: Infinity });
  });
  expect(await screen.findByText('Failed to add participant')).toBeInTheDocument();
  expect(document.querySelectorAll('[data-sonner-toast][data-visible="true"]')).toHaveLength(20);
  expect(document.querySelector('[data-sonner-toast][data-type="error"]')).not.toBeNull();
});
