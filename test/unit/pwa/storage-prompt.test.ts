import { describe, expect, it, vi } from 'vitest';
import { askForPersistentStorage, STORAGE_PROMPT_KEY } from '../../../src/pwa/storage-prompt';

/** Issue #12.11: ask for persistent storage after the first sign-in on a tablet. */
function memoryStore() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe('askForPersistentStorage', () => {
  it('on a tablet the browser did not grant it to, asks the coach once; their tap asks the browser again', async () => {
    let granted = false;
    const persist = vi.fn(async () => granted);
    const storage = { persist, persisted: async () => granted };
    const store = memoryStore();
    const ask = vi.fn();
    expect(await askForPersistentStorage({ storage, store, isTablet: true, ask })).toBe('asked');
    expect(ask).toHaveBeenCalledTimes(1);
    expect(store.items.has(STORAGE_PROMPT_KEY)).toBe(true);
    granted = true;
    const keep = ask.mock.calls[0][0] as () => Promise<boolean>;
    expect(await keep()).toBe(true);
    // A later sign-in on the same device does not ask again.
    granted = false;
    expect(await askForPersistentStorage({ storage, store, isTablet: true, ask })).toBe('not-asked');
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('asks nobody when the browser grants it silently, or on a desktop', async () => {
    const ask = vi.fn();
    expect(await askForPersistentStorage({ storage: { persist: async () => true }, store: memoryStore(), isTablet: true, ask })).toBe('granted');
    expect(await askForPersistentStorage({ storage: { persist: async () => false }, store: memoryStore(), isTablet: false, ask })).toBe('not-asked');
    expect(ask).not.toHaveBeenCalled();
  });
});
