import { BRAND_NAME } from '../../../shared/config';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { DashboardStats } from './dashboard-stats';
import { RecentEnrollmentsPanel } from './recent-enrollments-panel';
import { UpcomingReleasesPanel } from './upcoming-releases-panel';

/**
 * Spec 2.4: totals, the five newest enrollments and the five nearest projected releases. Until the
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
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <RecentEnrollmentsPanel ready={ready} />
        <UpcomingReleasesPanel ready={ready} />
      </div>
    </div>
  );
}
