import { describe, expect, it } from 'vitest';
import { changesPhrase } from '../../../src/domain/format';
import { logoutWarning, unsentPhrase } from '../../../src/pwa/logout-warning';

describe('logoutWarning (S11)', () => {
  it('names the count, singular and plural', () => {
    expect(logoutWarning(3)).toMatch(/^You have 3 changes that have not reached the server\. /);
    expect(logoutWarning(1)).toMatch(/^You have 1 change that has not reached the server\. /);
    expect(unsentPhrase(2)).toBe('2 changes that have not reached the server');
    expect(changesPhrase(1)).toBe('1 change');
    expect(changesPhrase(2)).toBe('2 changes');
  });

  it('says what happens to them', () => {
    expect(logoutWarning(2)).toContain('they stay on this device and are sent the next time you sign in here');
  });
});
