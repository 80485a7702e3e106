import { Calendar, UserRound, Users } from 'lucide-react';
import type { Cohort } from '../../../shared/entities';
import { formatDate } from '../../domain/format';
import { occupancyLabel } from '../../domain/occupancy';
import { Badge, statusTone } from '../../ui/badge';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';

/**
 * One cohort in ProgramDetail's or SiteDetail's list: code, the other side (site or program),
 * status, start, ACTIVE occupancy (spec 4) and lead coach; links to CohortDetail.
 */
export function GroupCohortItem({ cohort, place, active }: { cohort: Cohort; place: string; active: number | undefined }) {
  const status = cohort.status || 'planned';
  return (
    <PageLink href={pageUrl('CohortDetail', cohort.id)} className="block rounded-lg border border-slate-200 p-4 transition-colors hover:border-blue-300 hover:bg-blue-50/40">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">{cohort.cohort_code || 'Untitled Cohort'}</p>
          <p className="text-sm text-slate-600">{place}</p>
        </div>
        <Badge tone={statusTone(status)}>{status.toUpperCase()}</Badge>
      </div>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
        <span className="flex items-center gap-1">
          <Calendar className="h-3.5 w-3.5" aria-hidden="true" />
          Start: {formatDate(cohort.start_date, 'Not set')}
        </span>
        <span className="flex items-center gap-1">
          <Users className="h-3.5 w-3.5" aria-hidden="true" />
          {active === undefined ? '…' : `${occupancyLabel(active, cohort.capacity)} enrolled`}
          {/* Spec 2.12 counts active enrollments only; say so, as CohortDetail does (issue #12.9). */}
          {active !== undefined && <span className="text-slate-500">· active</span>}
        </span>
        {cohort.lead_coach_email && (
          <span className="flex items-center gap-1">
            <UserRound className="h-3.5 w-3.5" aria-hidden="true" />
            Lead Coach: {cohort.lead_coach_email}
          </span>
        )}
      </div>
    </PageLink>
  );
}
