import { ListFilters } from '../parts/list-filters';
import type { StatusFilter } from '../../domain/participant-search';

export const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
  { value: 'on_hold', label: 'On Hold' },
  { value: 'withdrawn', label: 'Withdrawn' },
];

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
    <ListFilters
      searchLabel="Search participants"
      placeholder="Search by name or email..."
      query={query}
      onQuery={onQuery}
      statusLabel="Filter by program status"
      status={status}
      options={STATUS_OPTIONS}
      onStatus={onStatus}
    />
  );
}
