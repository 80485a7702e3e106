import type { CohortRoster } from '../../data/queries/cohorts';
import type { Session } from '../../../shared/entities';
import { Panel } from '../../ui/card';
import { StatRow } from '../../ui/stat-card';

/** Quick Stats (spec 2.10): active and graduated enrollments, and every session of the cohort. */
export function QuickStatsPanel({ roster, sessions }: { roster: CohortRoster | undefined; sessions: Session[] | undefined }) {
  return (
    <Panel title="Quick Stats">
      <StatRow label="Active Enrollments" value={roster ? roster.active.length : '…'} />
      <StatRow label="Graduated" value={roster ? roster.graduated : '…'} />
      <StatRow label="Total Sessions" value={sessions ? sessions.length : '…'} />
    </Panel>
  );
}
