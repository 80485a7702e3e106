import { Search } from 'lucide-react';
import type { StatusFilter } from '../../domain/participant-search';

export const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
  { value: 'on_hold', label: 'On Hold' },
  { value: 'withdrawn', label: 'Withdrawn' },
];

const CONTROL =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 ' +
  'focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30';

/** The search box and program-status filter of spec 2.5. */
export function ParticipantFilters({
  query,
  onQuery,
  status,
  onStatus,
}: {
  query: string;
  onQuery: (q: string) => void;
  status: StatusFilter;
  onStatus: (s: StatusFilter) => void;
}) {
  return (
    <div role="search" className="flex flex-col gap-3 sm:flex-row">
      <div className="relative flex-1">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
        <input
          type="search"
          aria-label="Search participants"
          placeholder="Search by name or email..."
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          className={`${CONTROL} pr-3 pl-9`}
        />
      </div>
      <select aria-label="Filter by program status" value={status} onChange={(e) => onStatus(e.target.value as StatusFilter)} className={`${CONTROL} px-3 sm:w-48`}>
        {STATUS_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
