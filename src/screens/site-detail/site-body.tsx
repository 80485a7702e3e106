import type { ActiveSummary } from '../../data/queries/cohorts';
import { useProgramsById } from '../../data/queries/programs';
import type { Cohort } from '../../../shared/entities';
import { countActiveCohorts, distinctCoachEmails, distinctRefs } from '../../domain/cohort-groups';
import { Panel } from '../../ui/card';
import { SkeletonCards } from '../../ui/skeleton';
import { StatRow } from '../../ui/stat-card';
import { CoachesPanel } from '../parts/coaches-panel';
import { GroupCohortItem } from '../parts/group-cohort-item';
import { LinkedNamesPanel } from '../parts/linked-names-panel';

/** SiteDetail below the location: cohorts, programs, stats and coaches (spec 2.13). */
export function SiteBody({ cohorts, summary }: { cohorts: Cohort[] | undefined; summary: ActiveSummary | undefined }) {
  const programs = useProgramsById();
  if (!cohorts || !programs) return <SkeletonCards count={3} label="Loading cohorts" />;

  const programIds = distinctRefs(cohorts, 'program_id');
  const programName = (id: string) => programs.get(id)?.program_name || 'Unknown program';

  return (
    <div className="grid gap-6 xl:grid-cols-3">
      <Panel title={`Cohorts at This Site (${cohorts.length})`} className="xl:col-span-2">
        {cohorts.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No cohorts at this site yet</p>
        ) : (
          <ul className="space-y-3">
            {cohorts.map((c) => (
              <li key={c.id}>
                <GroupCohortItem cohort={c} place={programName(c.program_id)} active={summary?.byCohort.get(c.id) ?? (summary ? 0 : undefined)} />
              </li>
            ))}
          </ul>
        )}
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
