import { BRAND_NAME } from '../../../shared/config';
import { PageHeader } from '../../ui/page-header';
import { DashboardStats } from './dashboard-stats';
import { RecentEnrollmentsPanel } from './recent-enrollments-panel';
import { UpcomingReleasesPanel } from './upcoming-releases-panel';

/** Spec 2.4: totals, the five newest enrollments and the five nearest projected releases. */
export function DashboardPage() {
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Dashboard" subtitle={`${BRAND_NAME} Overview`} logo />
      <DashboardStats />
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <RecentEnrollmentsPanel />
        <UpcomingReleasesPanel />
      </div>
    </div>
  );
}
