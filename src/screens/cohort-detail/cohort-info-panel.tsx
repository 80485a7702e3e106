import type { ReactNode } from 'react';
import type { Cohort } from '../../../shared/entities';
import { useProgram } from '../../data/queries/programs';
import { useSite } from '../../data/queries/sites';
import { formatDate } from '../../domain/format';
import { occupancyLabel } from '../../domain/occupancy';
import { Panel } from '../../ui/card';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const linkClass = 'text-blue-700 underline-offset-2 hover:underline';

/** Cohort Information, view mode (spec 2.10); capacity counts ACTIVE enrollments (spec 4). */
export function CohortInfoPanel({ cohort, activeCount }: { cohort: Cohort; activeCount: number | undefined }) {
  const program = useProgram(cohort.program_id);
  const site = useSite(cohort.site_id);
  return (
    <Panel title="Cohort Information">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Item label="Program">
          {program ? (
            <PageLink href={pageUrl('ProgramDetail', program.id)} className={linkClass}>
              {program.program_name || 'Untitled Program'}
            </PageLink>
          ) : program === null ? 'Unknown program' : '…'}
        </Item>
        <Item label="Site">
          {site ? (
            <PageLink href={pageUrl('SiteDetail', site.id)} className={linkClass}>
              {site.site_name || 'Untitled Site'}
            </PageLink>
          ) : site === null ? 'Unknown site' : '…'}
        </Item>
        <Item label="Start Date">{formatDate(cohort.start_date, 'Not set')}</Item>
        {cohort.end_date && <Item label="End Date">{formatDate(cohort.end_date)}</Item>}
        <Item label="Capacity">
          {activeCount === undefined ? '…' : occupancyLabel(activeCount, cohort.capacity)}
          {/* Spec 2.10's text, then what it counts, so it reads apart from the Cohorts list (issue #12.9). */}
          {activeCount !== undefined && <span className="text-slate-500"> active</span>}
        </Item>
        {cohort.lead_coach_email && <Item label="Lead Coach">{cohort.lead_coach_email}</Item>}
      </dl>
      <div className="mt-5 rounded-lg bg-slate-50 p-4">
        <h3 className="text-sm font-semibold text-slate-700">Schedule</h3>
        <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{cohort.schedule_notes || 'No schedule notes yet'}</p>
      </div>
    </Panel>
  );
}
