import { Plus } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import type { ActiveSummary } from '../../data/queries/cohorts';
import { useSitesById } from '../../data/queries/sites';
import type { Cohort } from '../../../shared/entities';
import { countActiveCohorts, distinctCoachEmails, distinctRefs } from '../../domain/cohort-groups';
import { pagePath } from '../../shell-api/paths';
import { buttonClass } from '../../ui/button';
import { Panel } from '../../ui/card';
import { SkeletonCards } from '../../ui/skeleton';
import { StatRow } from '../../ui/stat-card';
import { CoachesPanel } from '../parts/coaches-panel';
import { GroupCohortItem } from '../parts/group-cohort-item';
import { LinkedNamesPanel } from '../parts/linked-names-panel';
import { Covers } from '../parts/scope-absence';

/**
 * ProgramDetail below the header: cohorts, sites, stats and coaches (spec 2.12). `covers`: on a
 * tablet holding some sites (issue #22.4), what its cohorts and figures cover ('at your 3 sites'),
 * set beside the spec's headings; '' when the tablet holds every site.
 */
export function ProgramBody({
  programId,
  cohorts,
  summary,
  isAdmin,
  covers = '',
}: {
  programId: string;
  cohorts: Cohort[] | undefined;
  summary: ActiveSummary | undefined;
  isAdmin: boolean;
  covers?: string;
}) {
  const sites = useSitesById();
  if (!cohorts || !sites) return <SkeletonCards count={3} label="Loading cohorts" />;

  const siteIds = distinctRefs(cohorts, 'site_id');
  const siteName = (id: string) => sites.get(id)?.site_name || 'Unknown site';
  const addCohort = (label: string) => (
    // ?program_id= pre-selects this program in AddCohort (issue #12.8).
    <Link to={pagePath('AddCohort')} search={{ program_id: programId }} className={buttonClass(label === 'Add Cohort' ? 'secondary' : 'primary')}>
      <Plus className="h-4 w-4" aria-hidden="true" />
      {label}
    </Link>
  );

  return (
    // items-start: the Cohorts card is as tall as its content, not the side column (issue #12.10).
    <div className="grid items-start gap-6 xl:grid-cols-3">
      <Panel
        title={
          <>
            Cohorts ({cohorts.length})
            <Covers phrase={covers} />
          </>
        }
        actions={isAdmin ? addCohort('Add Cohort') : undefined}
        className="xl:col-span-2"
      >
        {cohorts.length === 0 ? (
          <div className="py-6 text-center">
            <p className="text-sm text-slate-500">{covers ? `No cohorts for this program ${covers} on this tablet` : 'No cohorts for this program yet'}</p>
            {isAdmin && <div className="mt-4">{addCohort('Create First Cohort')}</div>}
          </div>
        ) : (
          <ul className="space-y-3">
            {cohorts.map((c) => (
              <li key={c.id}>
                <GroupCohortItem cohort={c} place={siteName(c.site_id)} active={summary?.byCohort.get(c.id) ?? (summary ? 0 : undefined)} />
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <div className="grid content-start items-start gap-6 md:grid-cols-2 xl:grid-cols-1">
        <LinkedNamesPanel
          title="Sites"
          page="SiteDetail"
          items={siteIds.map((id) => ({ id, name: siteName(id) }))}
          empty={covers ? 'None on this tablet' : 'No sites yet'}
          covers={covers}
        />
        <Panel
          title={
            <>
              Program Stats
              <Covers phrase={covers} />
            </>
          }
        >
          <StatRow label="Active Cohorts" value={countActiveCohorts(cohorts)} />
          <StatRow label="Total Cohorts" value={cohorts.length} />
          <StatRow label="Active Participants" value={summary ? summary.participantCount : '…'} />
          <StatRow label="Total Sites" value={siteIds.length} />
          <p className="mt-3 text-xs text-slate-500">Stats are calculated automatically from cohort data</p>
        </Panel>
        <CoachesPanel emails={distinctCoachEmails(cohorts)} covers={covers} />
      </div>
    </div>
  );
}
