import { describe, expect, it } from 'vitest';
import { countsOf, summarizeSync, syncedAgo, type SyncCounts } from '../../../src/pwa/sync-summary';

const base: SyncCounts = { loaded: true, online: true, firstSyncDone: true, syncing: false, pending: 0, rejected: 0, conflicts: 0, paused: false };

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

// Issue #9.6: every combination maps to exactly one label; the order of importance is the table's.
describe('summarizeSync: one label for every combination (table)', () => {
  const OFFLINE_CUT = 'Not all data is on this tablet yet: connect to finish';
  //  loaded online first  paused rej conf running pending → state, label
  const table: Array<[boolean, boolean, boolean, boolean, number, number, boolean, number, string, string]> = [
    [false, true, true, false, 0, 0, false, 0, 'checking', 'Checking sync…'],
    [false, false, false, true, 2, 1, true, 5, 'checking', 'Checking sync…'],
    [true, false, false, false, 0, 0, false, 0, 'incomplete', OFFLINE_CUT],
    [true, false, false, false, 0, 0, true, 0, 'incomplete', OFFLINE_CUT],
    [true, false, false, true, 1, 1, false, 3, 'incomplete', OFFLINE_CUT],
    [true, false, true, false, 0, 0, false, 0, 'offline', 'Offline'],
    [true, false, true, false, 0, 0, true, 0, 'offline', 'Offline'],
    [true, false, true, false, 0, 0, false, 2, 'offline', 'Offline · 2 pending'],
    [true, false, true, true, 1, 1, true, 2, 'offline', 'Offline · 2 pending'],
    [true, true, false, true, 0, 0, false, 0, 'attention', 'Needs attention'],
    [true, true, false, false, 1, 0, true, 0, 'attention', 'Needs attention'],
    [true, true, false, false, 0, 0, true, 0, 'first-sync', 'Downloading data'],
    [true, true, false, false, 0, 0, true, 4, 'first-sync', 'Downloading data'],
    [true, true, false, false, 0, 0, false, 0, 'incomplete', 'Not all data is on this tablet yet'],
    [true, true, true, false, 0, 1, true, 0, 'attention', 'Needs attention'],
    [true, true, true, true, 0, 0, false, 0, 'attention', 'Needs attention'],
    [true, true, true, false, 0, 0, true, 3, 'syncing', 'Syncing'],
    [true, true, true, false, 0, 0, false, 3, 'pending', '3 pending'],
    [true, true, true, false, 0, 0, false, 0, 'up-to-date', 'Up to date'],
  ];
  it.each(table)(
    'loaded %s, online %s, first sync done %s, paused %s, %i rejected, %i conflicts, running %s, %i pending',
    (loaded, online, firstSyncDone, paused, rejected, conflicts, syncing, pending, state, label) => {
      expect(summarizeSync({ loaded, online, firstSyncDone, paused, rejected, conflicts, syncing, pending })).toMatchObject({ state, label });
    },
  );

  it('never says Syncing or Up to date while offline, nor Up to date before the first sync finished', () => {
    for (const loaded of [true, false])
      for (const online of [true, false])
        for (const firstSyncDone of [true, false])
          for (const paused of [true, false])
            for (const rejected of [0, 1])
              for (const conflicts of [0, 1])
                for (const syncing of [true, false])
                  for (const pending of [0, 2]) {
                    const { label } = summarizeSync({ loaded, online, firstSyncDone, paused, rejected, conflicts, syncing, pending });
                    if (!online) expect(label).not.toMatch(/Syncing|Up to date|Downloading/);
                    if (!firstSyncDone) expect(label).not.toMatch(/Up to date/);
                    if (!loaded) expect(label).toBe('Checking sync…');
                  }
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
    expect(
      countsOf({ loaded: true, online: true, syncing: false, pending: 3, rejected: [{}], conflicts: [{}, {}], paused: 'auth', firstSync: [], firstSyncComplete: false, lastSyncedAt: 5 }),
    ).toEqual({
      loaded: true,
      online: true,
      firstSyncDone: true,
      syncing: false,
      pending: 2,
      rejected: 1,
      conflicts: 2,
      paused: true,
    });
  });
});
