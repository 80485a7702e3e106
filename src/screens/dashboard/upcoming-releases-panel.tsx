import { useUpcomingReleases } from '../../data/queries/participants';
import { formatDate } from '../../domain/format';
import { Panel } from '../../ui/card';
import { PanelRowsSkeleton, ParticipantRow } from './panel-rows';

/** Spec 2.4 and 9: the 5 in-custody participants with the earliest projected release dates. */
const RELEASES_LIMIT = 5;

/** `ready` false during the first sync: rows stay skeletons, never a false 'No upcoming releases'. */
export function UpcomingReleasesPanel({ ready }: { ready: boolean }) {
  const rows = useUpcomingReleases(RELEASES_LIMIT);
  return (
    <Panel title="Upcoming Releases">
      {!ready || !rows ? (
        <PanelRowsSkeleton label="Loading upcoming releases" />
      ) : rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No upcoming releases</p>
      ) : (
        <ul className="-mx-3 divide-y divide-slate-100">
          {rows.map((p) => (
            <ParticipantRow
              key={p.id}
              id={p.id}
              title={`${p.first_name ?? ''} ${p.last_name ?? ''}`.trim() || 'Participant'}
              detail={`Projected: ${formatDate(p.projected_release_date)}`}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}
