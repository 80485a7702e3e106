import { Plus } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { useCohorts, useEnrollmentCountsByCohort } from '../../data/queries/cohorts';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useProgramsById } from '../../data/queries/programs';
import { useSitesById } from '../../data/queries/sites';
import { pagePath } from '../../app/paths';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { FirstSyncNotice } from '../../ui/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { SkeletonCards } from '../../ui/skeleton';
import { CohortCard } from './cohort-card';

/**
 * Spec 2.8: every cohort, newest start first, with program, site and occupancy (all statuses).
 * During the first sync (issue #9.5): skeletons under the progress line; offline with the download
 * cut off, what arrived under "Not all data is on this tablet yet" — never 'Create your first cohort'.
 */
export function CohortsPage() {
  const cohorts = useCohorts();
  const counts = useEnrollmentCountsByCohort();
  const programs = useProgramsById();
  const sites = useSitesById();
  const readiness = useFirstSync(PAGE_NEEDS.Cohorts);
  const partial = readiness.state === 'incomplete';
  const loading = !cohorts || !counts || !programs || !sites || !(readiness.state === 'ready' || partial);

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Cohorts"
        subtitle="Manage program cohorts and sessions"
        actions={
          // Not restricted by role (spec 6): coaches may start cohorts too.
          <Link to={pagePath('AddCohort')} className={buttonClass('primary')}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            New Cohort
          </Link>
        }
      />
      <FirstSyncNotice readiness={readiness} />
      {loading ? (
        <SkeletonCards count={6} label="Loading cohorts" />
      ) : cohorts.length === 0 ? (
        partial ? null : <EmptyState title="No cohorts yet" description="Create your first cohort to get started" />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {cohorts.map((cohort) => (
            <li key={cohort.id}>
              <CohortCard
                cohort={cohort}
                programName={programs.get(cohort.program_id)?.program_name}
                siteName={sites.get(cohort.site_id)?.site_name}
                enrolled={counts.get(cohort.id) ?? 0}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
