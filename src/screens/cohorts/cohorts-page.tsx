import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { useListSearch } from '../../shell-api/list-search';
import { COHORT_STATUS_OPTIONS, filterCohorts, type CohortStatusFilter } from '../../domain/cohort-search';
import { Link } from '@tanstack/react-router';
import { useCohorts, useEnrollmentCountsByCohort } from '../../data/queries/cohorts';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useProgramsById } from '../../data/queries/programs';
import { useTabletScope } from '../../data/queries/scope';
import { scopePhrase } from '../../domain/scope-phrase';
import { useSitesById } from '../../data/queries/sites';
import { pagePath } from '../../shell-api/paths';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { SkeletonCards } from '../../ui/skeleton';
import { CohortCard } from './cohort-card';
import { ListFilters } from '../parts/list-filters';
import { isScoped, SitesOnTabletLink } from '../parts/scope-absence';

/**
 * Spec 2.8: every cohort, newest start first, with program, site and occupancy (all statuses).
 * During the first sync (issue #9.5): skeletons under the progress line; offline with the download
 * cut off, what arrived under "Not all data is on this tablet yet" — never 'Create your first cohort'.
 * On a tablet holding some sites (issue #22.4) a line under the subtitle says what the list covers,
 * and an empty list says it is empty at those sites, not that the academy has no cohorts.
 */
export function CohortsPage() {
  const cohorts = useCohorts();
  const counts = useEnrollmentCountsByCohort();
  const programs = useProgramsById();
  const sites = useSitesById();
  const readiness = useFirstSync(PAGE_NEEDS.Cohorts);
  const scope = useTabletScope();
  const scoped = isScoped(scope);
  const covers = scopePhrase(scope);
  const partial = readiness.state === 'incomplete';
  const loading = !cohorts || !counts || !programs || !sites || scope === undefined || !(readiness.state === 'ready' || partial);
  // Issue #12.8: ?q= and ?status= survive opening a cohort and coming back.
  const [search, setSearch] = useListSearch('Cohorts', ['q', 'status'] as const);
  const status = (COHORT_STATUS_OPTIONS.some((o) => o.value === search.status) ? search.status : 'all') as CohortStatusFilter;
  const shown = useMemo(
    () =>
      cohorts && programs && sites
        ? filterCohorts(cohorts, search.q, status, (c) => ({ program: programs.get(c.program_id)?.program_name, site: sites.get(c.site_id)?.site_name }))
        : undefined,
    [cohorts, programs, sites, search.q, status],
  );
  const filtering = search.q.trim() !== '' || status !== 'all';

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Cohorts"
        subtitle={
          <>
            <span>Manage program cohorts and sessions</span>
            {covers && (
              <span className="mt-1 block text-sm text-slate-500" data-testid="list-scope">
                Cohorts {covers}
              </span>
            )}
          </>
        }
        actions={
          // Not restricted by role (spec 6): coaches may start cohorts too.
          <Link to={pagePath('AddCohort')} className={buttonClass('primary')}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            New Cohort
          </Link>
        }
      />
      <ListFilters
        className="mb-6"
        searchLabel="Search cohorts"
        placeholder="Search by code, program or site..."
        query={search.q}
        onQuery={(q) => setSearch('q', q)}
        statusLabel="Filter by cohort status"
        status={status}
        options={COHORT_STATUS_OPTIONS}
        onStatus={(s) => setSearch('status', s === 'all' ? '' : s, { now: true })}
      />
      <FirstSyncNotice readiness={readiness} />
      {loading || !shown ? (
        <SkeletonCards count={6} label="Loading cohorts" />
      ) : cohorts.length === 0 ? (
        partial ? null : scoped ? (
          <EmptyState
            title="No cohorts at your sites on this tablet"
            description={
              <>
                Cohorts of other sites are not on this tablet. Add a site under <SitesOnTabletLink /> to see its cohorts here.
              </>
            }
          />
        ) : (
          <EmptyState title="No cohorts yet" description="Create your first cohort to get started" />
        )
      ) : shown.length === 0 && filtering ? (
        // The spec is silent on a search with no match; wording ours.
        <EmptyState
          title="No cohorts found"
          description={scoped ? 'Try another code, program, site or status. Cohorts of other sites are not on this tablet.' : 'Try another code, program, site or status.'}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((cohort) => (
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
