import type { RosterEntry } from '../../data/queries/attendance';
import { ATTENDANCE_STATUSES } from '../../../shared/entities';
import { ATTENDANCE_LABEL } from '../../domain/attendance';

/** '15 present · 2 late · 1 excused · 0 absent': the roster at a glance, under the marked count. */
export function StatusCounts({ entries }: { entries: readonly RosterEntry[] }) {
  const n = (status: string) => entries.filter((e) => e.record?.status === status).length;
  return (
    <p className="text-sm text-slate-600">
      {ATTENDANCE_STATUSES.map((s) => `${n(s)} ${ATTENDANCE_LABEL[s].toLowerCase()}`).join(' · ')}
    </p>
  );
}
