import { Building2, Calendar, GraduationCap, Users } from 'lucide-react';
import type { Cohort } from '../../../shared/entities';
import { occupancyLabel } from '../../domain/occupancy';
import { formatDate } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';
import { Card } from '../../ui/card';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';

/** One cohort on the Cohorts list; `enrolled` counts enrollments of any status (spec 2.8, 4). */
export function CohortCard({ cohort, programName, siteName, enrolled }: { cohort: Cohort; programName?: string; siteName?: string; enrolled: number }) {
  const status = cohort.status || 'planned';
  const code = cohort.cohort_code || 'Untitled Cohort';
  return (
    <PageLink href={pageUrl('CohortDetail', cohort.id)} className="block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
      <Card className="h-full p-5 transition-shadow hover:shadow-md">
        <div className="mb-3 flex items-start justify-between gap-3">
          <h2 className="min-w-0 break-words text-lg font-semibold text-slate-900">{code}</h2>
          <Badge tone={statusTone(status)}>{status.toUpperCase()}</Badge>
        </div>
        <dl className="space-y-2 text-sm text-slate-700">
          <div className="flex items-center gap-2">
            <GraduationCap className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
            <dt className="sr-only">Program</dt>
            <dd className="truncate">{programName || 'Unknown program'}</dd>
          </div>
          <div className="flex items-center gap-2">
            <Building2 className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
            <dt className="sr-only">Site</dt>
            <dd className="truncate">{siteName || 'Unknown site'}</dd>
          </div>
          <div className="flex items-center gap-2">
            <Users className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
            <dt className="sr-only">Enrolled</dt>
            {/* Spec 2.8's text, then why it differs from CohortDetail's active count (issue #12.9). */}
            <dd title="Counts every enrollment of this cohort: active, waitlist, graduated and withdrawn">
              {occupancyLabel(enrolled, cohort.capacity)} enrolled <span className="text-slate-500">· all statuses</span>
            </dd>
          </div>
        </dl>
        <dl className="mt-4 grid grid-cols-2 gap-3 border-t border-slate-100 pt-3 text-sm">
          <div>
            <dt className="flex items-center gap-1 text-xs font-medium text-slate-500">
              <Calendar className="h-3.5 w-3.5" aria-hidden="true" />
              Start Date
            </dt>
            <dd className="text-slate-900">{formatDate(cohort.start_date, 'Not set')}</dd>
          </div>
          {cohort.end_date && (
            <div>
              <dt className="text-xs font-medium text-slate-500">End Date</dt>
              <dd className="text-slate-900">{formatDate(cohort.end_date)}</dd>
            </div>
          )}
        </dl>
      </Card>
    </PageLink>
  );
}
