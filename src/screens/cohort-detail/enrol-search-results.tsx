import { UID_FIELD } from '../../../shared/config';
import type { Participant } from '../../../shared/entities';
import type { BeyondSearch } from '../../data/online/beyond-scope-hooks';
import { participantName, type SearchResult } from '../../domain/enrol-search';
import { humanize } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';

/** What the enrol search says under no local match when the server cannot be asked (issue #22.2). */
export const NOT_ON_TABLET_OFFLINE = 'Not on this tablet. Participants of other sites can be found when you are online.';

/**
 * The matches under the enrol search box; capped (ENROL_SEARCH_LIMIT) with a note when more match.
 * Issue #22.2: after them, the server's matches that are not on this tablet, marked as such;
 * choosing one keeps it on the tablet first (`keeping` is its id meanwhile).
 */
export function EnrolSearchResults({
  loading,
  result,
  onChoose,
  beyond,
  beyondResults,
  keeping = null,
  onChooseBeyond,
}: {
  loading: boolean;
  result: SearchResult;
  onChoose: (p: Participant) => void;
  beyond?: BeyondSearch;
  /** The server's matches to show (beyond.results without this cohort's active members). */
  beyondResults?: readonly Participant[];
  keeping?: string | null;
  onChooseBeyond?: (p: Participant) => void;
}) {
  if (loading) return <p className="mt-2 text-sm text-slate-500">Loading participants...</p>;
  const others = beyond?.status === 'done' ? (beyondResults ?? beyond.results) : [];
  return (
    <>
      {result.total === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No participants found</p>
      ) : (
        <div className="mt-2 rounded-lg border border-slate-200 bg-white shadow-sm">
          <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto" aria-label="Matching participants">
            {result.matches.map((p) => (
              <li key={p.id}>
                <ResultButton participant={p} onClick={() => onChoose(p)} />
              </li>
            ))}
          </ul>
          {result.total > result.matches.length && (
            <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500" role="status">
              Showing first {result.matches.length} of {result.total} matches — keep typing to narrow the list
            </p>
          )}
        </div>
      )}
      {beyond?.status === 'offline' && result.total === 0 && <p className="mt-1 text-sm text-slate-600">{NOT_ON_TABLET_OFFLINE}</p>}
      {beyond?.status === 'searching' && (
        <p role="status" className="mt-2 text-xs text-slate-500">
          Searching other sites…
        </p>
      )}
      {beyond?.status === 'error' && (
        <p role="status" className="mt-2 text-xs text-amber-800">
          Other sites could not be searched: {beyond.error}
        </p>
      )}
      {others.length > 0 && (
        <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50/60 shadow-sm">
          <p className="px-3 pt-2 text-sm font-semibold text-slate-900">Not on this tablet</p>
          <p className="px-3 pb-2 text-xs text-slate-600">From other sites — choosing one keeps it on this tablet for a day.</p>
          <ul className="max-h-60 divide-y divide-amber-100 overflow-y-auto border-t border-amber-100" aria-label="Participants not on this tablet">
            {others.map((p) => (
              <li key={p.id}>
                <ResultButton
                  participant={p}
                  busy={keeping === p.id}
                  disabled={keeping !== null}
                  note={keeping === p.id ? 'Keeping on this tablet…' : 'Not on this tablet'}
                  onClick={() => onChooseBeyond?.(p)}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

function ResultButton({
  participant: p,
  onClick,
  note,
  busy = false,
  disabled = false,
}: {
  participant: Participant;
  onClick: () => void;
  note?: string;
  busy?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-busy={busy || undefined}
      className="flex w-full items-center justify-between gap-3 px-3 py-2 text-left hover:bg-blue-50 focus-visible:bg-blue-50 focus-visible:outline-none disabled:cursor-wait disabled:opacity-70"
    >
      <span className="min-w-0">
        <span className="block font-medium text-slate-900">{participantName(p) || 'Participant'}</span>
        <span className="block text-xs text-slate-500">UID: {p[UID_FIELD] || '—'}</span>
        {note && <span className="block text-xs font-medium text-amber-900">{note}</span>}
      </span>
      <Badge tone={statusTone(p.custody_status ?? 'in-custody')}>{humanize(p.custody_status ?? 'in-custody')}</Badge>
    </button>
  );
}
