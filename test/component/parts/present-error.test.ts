import { afterEach, describe, expect, it, vi } from 'vitest';
import { InUseError, OfflineError, RecordNotFoundError, RefusedError, StorageFullError } from '../../../src/data/errors';
import { errorLine, presentError } from '../../../src/screens/parts/present-error';

// Issue #27: one presenter for every failed write: the action's failure text always, and the data
// layer's (or the server's) reason when it is meant for people; anything else goes to the console.
afterEach(() => vi.restoreAllMocks());

describe('presentError', () => {
  it('shows the reasons the data layer wrote for people under the failure (S12, offline, in use, gone)', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(presentError(new StorageFullError(), 'Failed to add participant')).toEqual({
      title: 'Failed to add participant',
      reason: 'This device is out of storage space, so the change was not saved. Free up space, then try again.',
    });
    expect(presentError(new OfflineError(), 'Failed to approve user').reason).toBe('You are offline. Approvals need a connection.');
    expect(presentError(new InUseError('site', 2), 'Failed to delete site. It may be in use by cohorts.').reason).toBe('2 cohorts use this site.');
    expect(presentError(new RecordNotFoundError('Cohort', 'c9'), 'Failed to update cohort. Please try again.').reason).toBe(
      'Cohort c9 was not found on this device.',
    );
    const early = "This tablet's sites are known after its first sync. Try again once it has synced.";
    expect(presentError(new RefusedError(early), 'Could not save the sites').reason).toBe(early);
    expect(logged).not.toHaveBeenCalled();
  });

  it('a quota error that was not wrapped still says the device is full', () => {
    const quota = Object.assign(new Error('Dexie: QuotaExceededError'), { name: 'AbortError', inner: { name: 'QuotaExceededError' } });
    expect(presentError(quota, 'Failed to create cohort').reason).toBe(new StorageFullError().message);
  });

  it("the server's own words for a refusal (4xx), never for its failure (5xx)", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refused = Object.assign(new Error('Only an administrator can revoke a coach.'), { status: 403 });
    const broken = Object.assign(new Error('Internal error'), { status: 500 });
    expect(presentError(refused, 'Failed to revoke')).toEqual({ title: 'Failed to revoke', reason: 'Only an administrator can revoke a coach.' });
    expect(presentError(broken, 'Failed to revoke')).toEqual({ title: 'Failed to revoke' });
  });

  it('anything else: the failure alone, and the error in the console', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(presentError(bug, 'Failed to create program. Please try again.')).toEqual({ title: 'Failed to create program. Please try again.' });
    expect(logged).toHaveBeenCalledWith('Failed to create program. Please try again.:', bug);
  });

  it('errorLine: the reason when there is one, else the failure', () => {
    expect(errorLine({ title: 'Failed to revoke', reason: 'Tablets can be managed when online.' })).toBe('Tablets can be managed when online.');
    expect(errorLine({ title: 'Failed to revoke' })).toBe('Failed to revoke');
  });
});
