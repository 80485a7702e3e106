import { describe, expect, it, vi } from 'vitest';
import { formatBytes, readStorageInfo, requestPersistentStorage } from '../../../src/pwa/storage';

describe('requestPersistentStorage (S12)', () => {
  it('asks the browser when storage is not yet persistent and returns its answer', async () => {
    const persist = vi.fn(async () => true);
    expect(await requestPersistentStorage({ persist, persisted: async () => false })).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('does not ask again when storage already is persistent', async () => {
    const persist = vi.fn(async () => true);
    expect(await requestPersistentStorage({ persist, persisted: async () => true })).toBe(true);
    expect(persist).not.toHaveBeenCalled();
  });

  it('returns false when refused, when the call throws, or without the API', async () => {
    expect(await requestPersistentStorage({ persist: async () => false, persisted: async () => false })).toBe(false);
    expect(await requestPersistentStorage({ persist: async () => Promise.reject(new Error('x')) })).toBe(false);
    expect(await requestPersistentStorage({})).toBe(false);
    expect(await requestPersistentStorage(undefined)).toBe(false);
  });
});

describe('readStorageInfo', () => {
  it('reports usage, quota and persistence', async () => {
    const info = await readStorageInfo({ estimate: async () => ({ usage: 2048, quota: 1 << 30 }), persisted: async () => false });
    expect(info).toEqual({ usage: 2048, quota: 1 << 30, persisted: false });
  });

  it('reports null for what the browser cannot tell', async () => {
    expect(await readStorageInfo({})).toEqual({ usage: null, quota: null, persisted: null });
    expect(await readStorageInfo({ estimate: () => Promise.reject(new Error('no')) })).toEqual({ usage: null, quota: null, persisted: null });
  });
});

describe('formatBytes', () => {
  it('uses powers of 1024 with one decimal below 10', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB');
    expect(formatBytes(-1)).toBe('');
  });
});
