import type { ReactNode } from 'react';
import type { ActiveSummary } from '../../data/queries/cohorts';
import { useProgramsById } from '../../data/queries/programs';
import type { Cohort } from '../../../shared/entities';
import { countActiveCohorts, distinctCoachEmails, distinctRefs } from '../../domain/cohort-groups';
import { Badge } from '../../ui/badge';
import { Panel } from '../../ui/card';
import { SkeletonCards } from '../../ui/skeleton';
import { StatRow } from '../../ui/stat-card';
import { CoachesPanel } from '../parts/coaches-panel';
import { GroupCohortItem } from '../parts/group-cohort-item';
import { LinkedNamesPanel } from '../parts/linked-names-panel';
import { NOT_ON_TABLET, SitesOnTabletLink } from '../parts/scope-absence';

/**
 * SiteDetail below the location: cohorts, programs, stats and coaches (spec 2.13). `held` false:
 * the tablet does not hold this site's cohorts (issue #22.2), so nothing here may say it has none.
 */
export function SiteBody({ cohorts, summary, held = true }: { cohorts: Cohort[] | undefined; summary: ActiveSummary | undefined; held?: boolean }) {
  const programs = useProgramsById();
  if (!cohorts || !programs) return <SkeletonCards count={3} label="Loading cohorts" />;

  const programName = (id: string) => programs.get(id)?.program_name || 'Unknown program';
  const list = (
    <ul className="space-y-3">
      {cohorts.map((c) => (
        <li key={c.id}>
          <GroupCohortItem cohort={c} place={programName(c.program_id)} active={summary?.byCohort.get(c.id) ?? (summary ? 0 : undefined)} />
        </li>
      ))}
    </ul>
  );
  if (!held) return <BeyondScopeBody cohorts={cohorts} list={list} />;

  const programIds = distinctRefs(cohorts, 'program_id');
  return (
    <div className="grid gap-6 xl:grid-cols-3">
      <Panel title={`Cohorts at This Site (${cohorts.length})`} className="xl:col-span-2">
        {cohorts.length === 0 ? <p className="py-6 text-center text-sm text-slate-500">No cohorts at this site yet</p> : list}
      </Panel>
      <div className="grid content-start items-start gap-6 md:grid-cols-2 xl:grid-cols-1">
        <LinkedNamesPanel title="Programs" page="ProgramDetail" items={programIds.map((id) => ({ id, name: programName(id) }))} empty="No programs yet" />
        <Panel title="Site Stats">
          <StatRow label="Active Cohorts" value={countActiveCohorts(cohorts)} />
          <StatRow label="Total Cohorts" value={cohorts.length} />
          <StatRow label="Active Participants" value={summary ? summary.participantCount : '…'} />
        </Panel>
        <CoachesPanel emails={distinctCoachEmails(cohorts)} />
      </div>
    </div>
  );
}

const ABSENT = <span className="text-sm font-normal text-slate-500">{NOT_ON_TABLET}</span>;

/**
 * A site beyond the tablet's scope: the spec's sections and labels, each saying its figures and
 * lists are not on this tablet (never a count of 0), with the way to add the site. A cohort of the
 * site that is here anyway (kept for an opened participant, or created here) is still listed.
 */
function BeyondScopeBody({ cohorts, list }: { cohorts: Cohort[]; list: ReactNode }) {
  return (
    <div className="grid gap-6 xl:grid-cols-3">
      <Panel title="Cohorts at This Site" actions={<Badge tone="amber">{NOT_ON_TABLET}</Badge>} className="xl:col-span-2">
        <div className="py-4 text-center">
          <p className="font-medium text-slate-800">The cohorts of this site are not on this tablet.</p>
          <p className="mt-1 text-sm text-slate-600">
            Add the site under <SitesOnTabletLink /> to work with them here.
          </p>
        </div>
        {cohorts.length > 0 && (
          <div className="mt-4 border-t border-slate-100 pt-4">
            <p className="mb-3 text-sm text-slate-600">Of its cohorts, these are on this tablet:</p>
            {list}
          </div>
        )}
      </Panel>
      <div className="grid content-start items-start gap-6 md:grid-cols-2 xl:grid-cols-1">
        <Panel title="Programs">
          <p className="text-sm text-slate-500">{NOT_ON_TABLET}</p>
        </Panel>
        <Panel title="Site Stats">
          <StatRow label="Active Cohorts" value={ABSENT} />
          <StatRow label="Total Cohorts" value={ABSENT} />
          <StatRow label="Active Participants" value={ABSENT} />
        </Panel>
        <Panel title="Coaches">
          <p className="text-sm text-slate-500">{NOT_ON_TABLET}</p>
        </Panel>
      </div>
    </div>
  );
}
