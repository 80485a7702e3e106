import { BookOpen, GraduationCap, Layers, Users } from 'lucide-react';
import { useCohorts } from '../../data/queries/cohorts';
import { useEnrollmentCounts } from '../../data/queries/enrollments';
import { useParticipantCounts } from '../../data/queries/participants';
import { usePrograms } from '../../data/queries/programs';
import { pagePath } from '../../app/paths';
import { PageLink } from '../../ui/page-link';
import { SkeletonCards } from '../../ui/skeleton';
import { StatCard } from '../../ui/stat-card';

const GRID = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-4';
const LINK = 'block rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/**
 * The four stat cards of spec 2.4, each a link; 4 skeleton cards while any count is loading or the
 * first sync has not brought everything they count (`ready` false).
 */
export function DashboardStats({ ready }: { ready: boolean }) {
  const participants = useParticipantCounts();
  const cohorts = useCohorts();
  const programs = usePrograms();
  const enrollments = useEnrollmentCounts();

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
          subtitle={`${participants.inCustody} in custody • ${participants.released} released`}
          icon={<Users aria-hidden="true" className="h-5 w-5" />}
        />
      </PageLink>
      <PageLink href={pagePath('Cohorts')} className={LINK}>
        <StatCard
          label="Active Cohorts"
          value={activeCohorts}
          subtitle={`${cohorts.length} total cohorts`}
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
          subtitle={`${enrollments.graduated} graduated`}
          icon={<GraduationCap aria-hidden="true" className="h-5 w-5" />}
        />
      </PageLink>
    </section>
  );
}
