import { describe, expect, it } from 'vitest';
import { countsOf, summarizeSync, syncedAgo, type SyncCounts } from '../../../src/pwa/sync-summary';

const base: SyncCounts = { online: true, syncing: false, pending: 0, rejected: 0, conflicts: 0, paused: false };

describe('summarizeSync', () => {
  it('says Up to date when online with nothing left', () => {
    expect(summarizeSync(base)).toEqual({ state: 'up-to-date', label: 'Up to date' });
  });

  it('counts pending ops', () => {
    expect(summarizeSync({ ...base, pending: 4 })).toEqual({ state: 'pending', label: '4 pending' });
  });

  it('says Syncing while a push or pull runs', () => {
    expect(summarizeSync({ ...base, pending: 4, syncing: true }).state).toBe('syncing');
  });

  it('says Needs attention for rejected ops, open conflicts or a 401 pause, over syncing and pending', () => {
    expect(summarizeSync({ ...base, rejected: 1, pending: 2, syncing: true })).toEqual({ state: 'attention', label: 'Needs attention' });
    expect(summarizeSync({ ...base, conflicts: 1 }).state).toBe('attention');
    expect(summarizeSync({ ...base, paused: true }).state).toBe('attention');
  });

  it('says Offline before anything else, with the pending count when there is one', () => {
    expect(summarizeSync({ ...base, online: false })).toEqual({ state: 'offline', label: 'Offline' });
    expect(summarizeSync({ ...base, online: false, pending: 3, rejected: 1, syncing: true })).toEqual({ state: 'offline', label: 'Offline · 3 pending' });
  });
});

describe('syncedAgo', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it('words the last sync time', () => {
    expect(syncedAgo(null, now)).toBe('Not synced yet');
    expect(syncedAgo(now - 5_000, now)).toBe('Synced just now');
    expect(syncedAgo(now - 59_999, now)).toBe('Synced just now');
    expect(syncedAgo(now - 2 * 60_000, now)).toBe('Synced 2 min ago');
    expect(syncedAgo(now - 59 * 60_000, now)).toBe('Synced 59 min ago');
    expect(syncedAgo(now - 3 * 3_600_000, now)).toBe('Synced 3 h ago');
    expect(syncedAgo(now - 26 * 3_600_000, now)).toBe('Synced 1 day ago');
    expect(syncedAgo(now - 50 * 3_600_000, now)).toBe('Synced 2 days ago');
  });

  it('treats a clock that went backwards as just now', () => {
    expect(syncedAgo(now + 10_000, now)).toBe('Synced just now');
  });
});

describe('countsOf', () => {
  it("takes rejected ops out of the data layer's pending count", () => {
    expect(countsOf({ online: true, syncing: false, pending: 3, rejected: [{}], conflicts: [{}, {}], paused: 'auth' })).toEqual({
      online: true,
      syncing: false,
      pending: 2,
      rejected: 1,
      conflicts: 2,
      paused: true,
    });
  });
});
