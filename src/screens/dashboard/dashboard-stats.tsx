import { BookOpen, GraduationCap, Layers, Users } from 'lucide-react';
import { useCohorts } from '../../data/queries/cohorts';
import { useEnrollmentCounts } from '../../data/queries/enrollments';
import { useParticipantCounts } from '../../data/queries/participants';
import { usePrograms } from '../../data/queries/programs';
import { useTabletScope } from '../../data/queries/scope';
import { useSyncStatus } from '../../data/queries/sync-status';
import { useAcademyCounts } from '../../data/online/academy-counts';
import { scopePhrase } from '../../domain/scope-phrase';
import { pagePath } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import { SkeletonCards } from '../../ui/skeleton';
import { StatCard } from '../../ui/stat-card';

const GRID = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-4';
const LINK = 'block rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/**
 * Issue #22.4: a card's spec subtitle, and under it what the figure covers when the tablet holds
 * only some sites ('at your 3 sites'; for participants, online, '· 10,000 in the academy').
 */
function Subtitle({ text, covers }: { text: string; covers: string }) {
  return (
    <>
      {text}
      {covers && (
        <span className="mt-0.5 block text-xs text-slate-500" data-testid="stat-scope">
          {covers}
        </span>
      )}
    </>
  );
}

/**
 * The four stat cards of spec 2.4, each a link; 4 skeleton cards while any count is loading or the
 * first sync has not brought everything they count (`ready` false). On a tablet that holds some
 * sites (issue #22), the scoped cards say so beside the spec's subtitle; Programs are whole everywhere.
 */
export function DashboardStats({ ready }: { ready: boolean }) {
  const participants = useParticipantCounts();
  const cohorts = useCohorts();
  const programs = usePrograms();
  const enrollments = useEnrollmentCounts();
  const phrase = scopePhrase(useTabletScope());
  const { online } = useSyncStatus();
  const academy = useAcademyCounts(phrase !== '' && online);

  if (!ready || !participants || !cohorts || !programs || !enrollments) {
    return <SkeletonCards count={4} className={GRID} label="Loading overview" />;
  }
  const activeCohorts = cohorts.filter((c) => c.status === 'active').length;
  const activePrograms = programs.filter((p) => p.active === true).length;

  return (
    <section aria-label="Overview" className={GRID}>
      <PageLink href={pagePath('Participants')} className={LINK}>
        <StatCard
          label="Total Participants"
          value={participants.total}
          subtitle={
            <Subtitle
              text={`${participants.inCustody} in custody • ${participants.released} released`}
              covers={phrase && academy ? `${phrase} · ${academy.participants.toLocaleString('en-US')} in the academy` : phrase}
            />
          }
          icon={<Users aria-hidden="true" className="h-5 w-5" />}
        />
      </PageLink>
      <PageLink href={pagePath('Cohorts')} className={LINK}>
        <StatCard
          label="Active Cohorts"
          value={activeCohorts}
          subtitle={<Subtitle text={`${cohorts.length} total cohorts`} covers={phrase} />}
          icon={<Layers aria-hidden="true" className="h-5 w-5" />}
        />
      </PageLink>
      <PageLink href={pagePath('ProgramsSites')} className={LINK}>
        <StatCard label="Programs" value={activePrograms} subtitle="Active programs" icon={<BookOpen aria-hidden="true" className="h-5 w-5" />} />
      </PageLink>
      <PageLink href={pagePath('Participants')} className={LINK}>
        <StatCard
          label="Active Enrollments"
          value={enrollments.active}
          subtitle={<Subtitle text={`${enrollments.graduated} graduated`} covers={phrase} />}
          icon={<GraduationCap aria-hidden="true" className="h-5 w-5" />}
        />
      </PageLink>
    </section>
  );
}
