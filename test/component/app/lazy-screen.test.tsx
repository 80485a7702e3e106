import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { lazyScreen } from '../../../src/app/lazy-screen';

afterEach(cleanup);

function Hello({ name }: { name: string }) {
  return <h1>Hello {name}</h1>;
}

describe('a screen in its own chunk (issue #11.6)', () => {
  it('renders once its chunk arrives; a preloaded screen renders at once', async () => {
    const Screen = lazyScreen(() => Promise.resolve(Hello));
    // Awaited act: React resumes a suspended render only when the act scope is awaited.
    await act(async () => {
      render(
        <Suspense fallback={<p>loading</p>}>
          <Screen name="Ada" />
        </Suspense>,
      );
    });
    expect(await screen.findByRole('heading', { name: 'Hello Ada' })).toBeInTheDocument();
    expect(Screen.loaded()).toBe(true);
    cleanup();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Screen name="Bea" />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'Hello Bea' })).toBeInTheDocument();
  });

  it('a chunk that cannot be fetched (offline) says so, never reloads, and Try again loads it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const importer = vi.fn<() => Promise<typeof Hello>>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue(Hello);
    const Screen = lazyScreen(importer);
    expect(await Screen.load()).toBe(false);
    await act(async () => {
      render(
        <Suspense fallback={<p>loading</p>}>
          <Screen name="Cy" />
        </Suspense>,
      );
    });
    expect(await screen.findByRole('heading', { name: 'This page is not on this device yet' })).toBeInTheDocument();
    // Re-rendering does not hammer the network: still the one failed attempt.
    expect(importer).toHaveBeenCalledTimes(1);
    await act(async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(await screen.findByRole('heading', { name: 'Hello Cy' })).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('the router preload never rejects and retries a failed chunk', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const importer = vi.fn<() => Promise<typeof Hello>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Hello);
    const Screen = lazyScreen(importer);
    await expect(Screen.preload()).resolves.toBeUndefined();
    expect(Screen.loaded()).toBe(false);
    await Screen.preload();
    expect(Screen.loaded()).toBe(true);
  });
});
