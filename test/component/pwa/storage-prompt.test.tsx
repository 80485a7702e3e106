import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Toaster, toast } from 'sonner';
import { promptForPersistentStorage, PROMPT_TEXT, PROMPT_TITLE } from '../../../src/pwa/storage-prompt-toast';
import { STORAGE_PROMPT_KEY } from '../../../src/pwa/storage-prompt';

/** Issue #12.11: after the first sign-in on a tablet, the coach is asked to keep the data. */
afterEach(() => {
  // sonner keeps toasts in a module-wide store: the first test's open prompt must not leak into the next.
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  localStorage.removeItem(STORAGE_PROMPT_KEY);
});

function tablet(persist: () => Promise<boolean>) {
  vi.stubGlobal('navigator', { ...navigator, maxTouchPoints: 5, storage: { persist, persisted: async () => false } });
}

describe('persistent storage prompt', () => {
  it('on a tablet the browser refused silently: a toast says why, and "Keep data" asks again from the tap', async () => {
    const persist = vi.fn().mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    tablet(persist);
    render(<Toaster />);
    promptForPersistentStorage();
    expect(await screen.findByText(PROMPT_TITLE)).toBeInTheDocument();
    expect(screen.getByText(PROMPT_TEXT)).toBeInTheDocument();
    // A click without pointerdown: jsdom has no setPointerCapture for sonner's swipe handling.
    fireEvent.click(screen.getByRole('button', { name: 'Keep data' }));
    expect(await screen.findByText('Passage data will be kept on this device.')).toBeInTheDocument();
    expect(persist).toHaveBeenCalledTimes(2);
  });

  it('asks only once per device', async () => {
    tablet(vi.fn(async () => false));
    localStorage.setItem(STORAGE_PROMPT_KEY, '2026-11-20T00:00:00Z');
    render(<Toaster />);
    promptForPersistentStorage();
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(PROMPT_TITLE)).not.toBeInTheDocument();
  });
});
