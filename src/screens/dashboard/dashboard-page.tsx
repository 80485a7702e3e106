import { BRAND_NAME } from '../../../shared/config';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { DashboardStats } from './dashboard-stats';
import { RecentEnrollmentsPanel } from './recent-enrollments-panel';
import { SessionsThisWeekPanel } from './sessions-this-week-panel';
import { UpcomingReleasesPanel } from './upcoming-releases-panel';

/**
 * Spec 2.4: totals, the five newest enrollments and the five nearest projected releases; issue
 * #23.2 adds the coach's sessions of this week between the totals and those two panels. Until the
 * first sync brought every entity the totals count, the cards and panels stay skeletons under the
 * progress line (issue #9.5): '0 participants' on a tablet still downloading would be false.
 */
export function DashboardPage() {
  const readiness = useFirstSync(PAGE_NEEDS.Dashboard);
  const ready = readiness.state === 'ready';
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Dashboard" subtitle={`${BRAND_NAME} Overview`} logo />
      <FirstSyncNotice readiness={readiness} />
      <DashboardStats ready={ready} />
      {/* Issue #23.2: a coach's sessions of the week, above the spec's panels (its own first-sync needs). */}
      <SessionsThisWeekPanel />
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <RecentEnrollmentsPanel ready={ready} />
        <UpcomingReleasesPanel ready={ready} />
      </div>
    </div>
  );
}
