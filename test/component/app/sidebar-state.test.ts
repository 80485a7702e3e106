import { describe, expect, it } from 'vitest';
import { isSidebarShortcut, readSidebarCookie, sidebarCookieValue } from '../../../src/app/layout/sidebar-state';
import { navItemsFor, navMatch, NAV_ITEMS } from '../../../src/app/layout/nav-items';

describe('sidebar state', () => {
  it('cookie: sidebar_state, 7 days, whole site', () => {
    expect(sidebarCookieValue(false)).toBe('sidebar_state=false; path=/; max-age=604800');
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
    expect(readSidebarCookie('')).toBe(true);
  });

  it('Ctrl+B and Cmd+B toggle; other chords do not', () => {
    const k = (o: Partial<KeyboardEvent>) => ({ key: 'b', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...o });
    expect(isSidebarShortcut(k({ ctrlKey: true }))).toBe(true);
    expect(isSidebarShortcut(k({ metaKey: true }))).toBe(true);
    expect(isSidebarShortcut(k({}))).toBe(false);
    expect(isSidebarShortcut(k({ ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSidebarShortcut(k({ key: 'n', ctrlKey: true }))).toBe(false);
  });
});

describe('navigation entries', () => {
  it('are in the order of spec 2.2, with User Approvals (and Audit, issue #26) for admins only', () => {
    expect(navItemsFor(false).map((i) => i.label)).toEqual(['Dashboard', 'Participants', 'Cohorts', 'Programs & Sites', 'Add Participant']);
    expect(navItemsFor(true).map((i) => i.label)).toEqual([
      'Dashboard',
      'Participants',
      'Cohorts',
      'Programs & Sites',
      'Add Participant',
      'User Approvals',
      'Audit',
    ]);
  });

  it('a detail page highlights its section', () => {
    const cohorts = NAV_ITEMS.find((i) => i.page === 'Cohorts')!;
    expect(navMatch(cohorts, 'Cohorts')).toBe('page');
    expect(navMatch(cohorts, 'CohortDetail')).toBe('section');
    expect(navMatch(cohorts, 'Participants')).toBeNull();
  });
});
