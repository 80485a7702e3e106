import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useActiveEnrollmentSummary, useCohortsOfSite } from '../../data/queries/cohorts';
import { useSite } from '../../data/queries/sites';
import { useTabletScope } from '../../data/queries/scope';
import { humanize } from '../../domain/format';
import { Badge } from '../../ui/badge';
import { BackLink } from '../parts/back-link';
import { DetailRecordState } from '../parts/detail-record-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { holdsSite } from '../parts/scope-absence';
import { useDetailRecord } from '../parts/use-detail-record';
import { PageHeader } from '../../ui/page-header';
import { LocationPanel } from './location-panel';
import { SiteBody } from './site-body';

/**
 * Spec 2.13: one site, read-only — location, cohorts, programs, stats and coaches. A site whose
 * cohorts this tablet does not hold (issue #22.2) says so instead of 'No cohorts at this site yet'.
 */
export function SiteDetailPage({ id }: { id: string }) {
  // Sites are whole on every tablet (S15): an absent one is not found, once the first sync is done.
  const { view, readiness } = useDetailRecord(useSite(id), PAGE_NEEDS.SiteDetail);
  const cohorts = useCohortsOfSite(id);
  const summary = useActiveEnrollmentSummary(cohorts?.map((c) => c.id));
  const scope = useTabletScope();

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading site"
        notFound="Site not found"
        back={{ page: 'ProgramsSites', label: 'Back to Sites' }}
      />
    );
  }
  const site = view.record;

  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="ProgramsSites" label="Programs & Sites" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {site.site_name || 'Untitled Site'}
            {/* Capitalised like Facility Type below ('Fire camp', issue #12.10); 'unspecified' is the spec's text. */}
            <Badge tone="blue" className={site.site_type ? 'capitalize' : undefined}>
              {site.site_type ? humanize(site.site_type) : 'unspecified'}
            </Badge>
            <Badge tone={site.active ? 'green' : 'slate'}>{site.active ? 'Active' : 'Inactive'}</Badge>
          </span>
        }
      />
      <LocationPanel site={site} />
      <SiteBody cohorts={scope === undefined ? undefined : cohorts} summary={summary} held={holdsSite(scope, site.id)} />
    </div>
  );
}
