import { describe, expect, it } from 'vitest';
import { scopePhrase } from '../../../src/domain/scope-phrase';

// Issue #22.4: what a count made on this tablet covers.
describe('scopePhrase', () => {
  it.each([
    ['no scope yet', null, ''],
    ['loading', undefined, ''],
    ['every site (the figures are the academy\'s)', { all: true, siteIds: ['a', 'b'], defaultSiteIds: ['a', 'b'] }, ''],
    ['the user\'s own sites', { all: false, siteIds: ['a', 'b', 'c'], defaultSiteIds: ['c', 'b', 'a'] }, 'at your 3 sites'],
    ['one own site', { all: false, siteIds: ['a'], defaultSiteIds: ['a'] }, 'at your 1 site'],
    ['a site added to the own ones', { all: false, siteIds: ['a', 'b', 'c', 'd'], defaultSiteIds: ['a', 'b', 'c'] }, 'at 4 sites'],
    ['an own site removed', { all: false, siteIds: ['a', 'b'], defaultSiteIds: ['a', 'b', 'c'] }, 'at 2 sites'],
    ['one site swapped for another', { all: false, siteIds: ['a', 'x'], defaultSiteIds: ['a', 'b'] }, 'at 2 sites'],
    ['an administrator who left some sites off', { all: false, siteIds: Array.from({ length: 1200 }, (_, i) => `s${i}`), defaultSiteIds: [] }, 'at 1,200 sites'],
    ['a coach with no cohort yet', { all: false, siteIds: [], defaultSiteIds: [] }, 'with no site on this tablet'],
  ])('%s', (_name, scope, phrase) => {
    expect(scopePhrase(scope)).toBe(phrase);
  });
});
