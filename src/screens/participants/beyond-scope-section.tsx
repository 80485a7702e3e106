import type { MouseEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { Mail, Phone } from 'lucide-react';
import { keepOnTablet } from '../../data/online/beyond-scope';
import type { BeyondSearch } from '../../data/online/beyond-scope-hooks';
import type { Participant } from '../../../shared/entities';
import { pagePath, pageUrl } from '../../shell-api/paths';
import { Badge } from '../../ui/badge';
import { useCommand } from '../parts/use-command';

/** What the list says under an empty local result when the server cannot be asked (issue #22.2). */
export const NOT_ON_TABLET_OFFLINE = 'Not on this tablet. Participants of other sites can be found when you are online.';

/**
 * Issue #22.2: below the tablet's own results, the server's matches from other sites, marked as
 * such. Opening one keeps it on the tablet for a day (keepOnTablet), then goes to its page.
 * Offline, with matches on the tablet, one line says that other sites were not searched; with none,
 * the empty state above says it (NOT_ON_TABLET_OFFLINE).
 */
export function BeyondScopeSection({ search, localEmpty }: { search: BeyondSearch; localEmpty: boolean }) {
  if (search.status === 'idle') return null;
  if (search.status === 'offline') {
    return localEmpty ? null : <p className="mt-2 text-sm text-slate-600">Participants of other sites can be found when you are online.</p>;
  }
  if (search.status === 'searching') {
    return (
      <p role="status" className="mt-2 text-sm text-slate-600">
        Searching other sites…
      </p>
    );
  }
  if (search.status === 'error') {
    return (
      <p role="status" className="mt-2 text-sm text-amber-800">
        Other sites could not be searched: {search.error}
      </p>
    );
  }
  if (search.results.length === 0) return null;
  return (
    <section aria-labelledby="beyond-scope-heading" className="mt-8 rounded-xl border border-amber-200 bg-amber-50/60 p-4">
      <h2 id="beyond-scope-heading" className="text-lg font-semibold text-slate-900">
        Not on this tablet
      </h2>
      <p className="mb-4 text-sm text-slate-700">From other sites — opening one keeps it on this tablet for a day.</p>
      <ul aria-label="Participants not on this tablet" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {search.results.map((p) => (
          <li key={p.id}>
            <BeyondCard participant={p} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function BeyondCard({ participant: p }: { participant: Participant }) {
  const navigate = useNavigate();
  const keep = useCommand((data) => keepOnTablet(data, p.id), {
    failure: 'Failed to open participant. Please try again.',
    onSuccess: (kept) =>
      kept ? navigate({ to: pagePath('ParticipantDetail'), search: { id: kept.id } }) : void toast.error('Participant not found'),
  });
  const opening = keep.pending;
  const name = `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim() || 'Participant';
  const inCustody = p.custody_status === 'in-custody';

  function open(event: MouseEvent<HTMLAnchorElement>) {
    // Modified clicks (a new tab) stay the browser's: the page opened there fetches it itself.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void keep.run();
  }

  return (
    <a
      href={pageUrl('ParticipantDetail', p.id)}
      onClick={open}
      aria-busy={opening || undefined}
      className="block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-slate-900">{name}</h3>
          {p.academy_uid && <p className="text-sm text-slate-500">UID: {p.academy_uid}</p>}
        </div>
        {p.custody_status && <Badge tone={inCustody ? 'violet' : 'green'}>{inCustody ? 'IN CUSTODY' : 'RELEASED'}</Badge>}
      </div>
      <div className="mt-2 space-y-1 text-sm text-slate-700">
        {p.email && (
          <p className="flex min-w-0 items-center gap-2">
            <Mail aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-400" />
            <span className="truncate">{p.email}</span>
          </p>
        )}
        {p.phone && (
          <p className="flex min-w-0 items-center gap-2">
            <Phone aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-400" />
            <span className="truncate">{p.phone}</span>
          </p>
        )}
      </div>
      {opening && (
        <p role="status" className="mt-2 text-sm font-medium text-blue-800">
          Keeping it on this tablet…
        </p>
      )}
    </a>
  );
}
