import { LayoutDashboard, Users, GraduationCap, Building2, UserPlus, ShieldCheck, ScrollText, type LucideIcon } from 'lucide-react';
import type { PageName } from '../../shell-api/paths';

/** The sidebar entries, in the order of spec.md 2.2; 'User Approvals' (and issue #26's 'Audit') only for admins. */
export interface NavItem {
  label: string;
  page: PageName;
  icon: LucideIcon;
  adminOnly?: boolean;
  /** Pages reached from this entry, so the entry stays highlighted on them. */
  children?: PageName[];
}

export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', page: 'Dashboard', icon: LayoutDashboard },
  { label: 'Participants', page: 'Participants', icon: Users, children: ['ParticipantDetail'] },
  { label: 'Cohorts', page: 'Cohorts', icon: GraduationCap, children: ['CohortDetail', 'AddCohort'] },
  { label: 'Programs & Sites', page: 'ProgramsSites', icon: Building2, children: ['ProgramDetail', 'SiteDetail'] },
  { label: 'Add Participant', page: 'AddParticipant', icon: UserPlus },
  { label: 'User Approvals', page: 'AdminApprovals', icon: ShieldCheck, adminOnly: true },
  // Issue #26: the audit trail, after the spec's entries (Passage's own page).
  { label: 'Audit', page: 'Audit', icon: ScrollText, adminOnly: true },
];

export function navItemsFor(isAdmin: boolean): NavItem[] {
  return NAV_ITEMS.filter((item) => isAdmin || !item.adminOnly);
}

/** 'page' for the entry of the current page, 'section' for its parent entry, else null. */
export function navMatch(item: NavItem, current: PageName | null): 'page' | 'section' | null {
  if (current === item.page) return 'page';
  return current && item.children?.includes(current) ? 'section' : null;
}
