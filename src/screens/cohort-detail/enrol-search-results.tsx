import { UID_FIELD } from '../../../shared/config';
import type { Participant } from '../../../shared/entities';
import { participantName, type SearchResult } from '../../domain/enrol-search';
import { humanize } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';

/** The matches under the enrol search box; capped (ENROL_SEARCH_LIMIT) with a note when more match. */
export function EnrolSearchResults({ loading, result, onChoose }: { loading: boolean; result: SearchResult; onChoose: (p: Participant) => void }) {
  if (loading) return <p className="mt-2 text-sm text-slate-500">Loading participants...</p>;
  if (result.total === 0) return <p className="mt-2 text-sm text-slate-500">No participants found</p>;
  return (
    <div className="mt-2 rounded-lg border border-slate-200 bg-white shadow-sm">
      <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto" aria-label="Matching participants">
        {result.matches.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              onClick={() => onChoose(p)}
              className="flex w-full items-center justify-between gap-3 px-3 py-2 text-left hover:bg-blue-50 focus-visible:bg-blue-50 focus-visible:outline-none"
            >
              <span className="min-w-0">
                <span className="block font-medium text-slate-900">{participantName(p) || 'Participant'}</span>
                <span className="block text-xs text-slate-500">UID: {p[UID_FIELD] || '—'}</span>
              </span>
              <Badge tone={statusTone(p.custody_status ?? 'in-custody')}>{humanize(p.custody_status ?? 'in-custody')}</Badge>
            </button>
          </li>
        ))}
      </ul>
      {result.total > result.matches.length && (
        <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500" role="status">
          Showing first {result.matches.length} of {result.total} matches — keep typing to narrow the list
        </p>
      )}
    </div>
  );
}
