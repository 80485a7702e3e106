import { memo, useEffect, useEffectEvent, useRef, type ReactNode } from 'react';
import { format } from 'date-fns';
import { Calendar, Mail, Phone } from 'lucide-react';
import type { Participant } from '../../../shared/entities';
import { toDate } from '../../domain/format';
import { Badge } from '../../ui/badge';
import { pageUrl } from '../../shell-api/paths';

/** The card's link carries the participant's id here; the grid's one click handler routes it. */
export const PARTICIPANT_ID_ATTRIBUTE = 'data-participant-id';

/**
 * One participant card (spec 2.5). `delayMs` is its entrance-animation delay, or null when it
 * mounts after the list first appeared (scrolled into view) and should simply be there.
 * Memoised: a keystroke in the search re-renders the grid, and the cards that stay in view (same
 * participant object, same codes array) need not render again.
 */
export const ParticipantCard = memo(function ParticipantCard({
  participant: p,
  activeCohorts,
  delayMs,
}: {
  participant: Participant;
  activeCohorts: readonly string[];
  delayMs: number | null;
}) {
  const ref = useAnimateIn(delayMs);
  const name = `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim();
  const inCustody = p.custody_status === 'in-custody';
  const release = inCustody ? toDate(p.projected_release_date) : null;

  return (
    <div ref={ref} className="h-full">
      {/* A plain link (the router's Link costs a subscription and a location build per card, and a
          keystroke can bring 30 new cards); ParticipantGrid routes the click. */}
      <a
        href={pageUrl('ParticipantDetail', p.id)}
        {...{ [PARTICIPANT_ID_ATTRIBUTE]: p.id }}
        className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        <div className="flex h-full flex-col gap-3">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h3 className="truncate text-lg font-semibold text-slate-900">{name}</h3>
              {p.academy_uid && <p className="text-sm text-slate-500">UID: {p.academy_uid}</p>}
            </div>
            {p.custody_status && <Badge tone={inCustody ? 'violet' : 'green'}>{inCustody ? 'IN CUSTODY' : 'RELEASED'}</Badge>}
          </div>
          <div className="space-y-1 text-sm text-slate-700">
            {p.email && <Line icon={<Mail aria-hidden="true" className="h-4 w-4" />}>{p.email}</Line>}
            {p.phone && <Line icon={<Phone aria-hidden="true" className="h-4 w-4" />}>{p.phone}</Line>}
            {release && <Line icon={<Calendar aria-hidden="true" className="h-4 w-4" />}>Release: {format(release, 'MMMM d, yyyy')}</Line>}
          </div>
          <div className="mt-auto grid gap-2">
            <div className="rounded-lg bg-blue-50 px-3 py-2">
              <p className="text-xs font-semibold uppercase tracking-wide text-blue-800">Active Cohorts</p>
              <p className="text-sm text-slate-800">{activeCohorts.length ? activeCohorts.join(', ') : <span className="text-slate-600">None</span>}</p>
            </div>
            {p.case_manager && (
              <div className="rounded-lg bg-slate-50 px-3 py-2">
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">Case Manager</p>
                <p className="text-sm text-slate-800">{p.case_manager}</p>
              </div>
            )}
          </div>
        </div>
      </a>
    </div>
  );
});

function Line({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex min-w-0 items-center gap-2">
      <span className="shrink-0 text-slate-400">{icon}</span>
      <span className="truncate">{children}</span>
    </p>
  );
}

/** Fade and rise in once, on mount (Web Animations API: no stylesheet needed); skipped for reduced motion. */
function useAnimateIn(delayMs: number | null) {
  const ref = useRef<HTMLDivElement>(null);
  const animateIn = useEffectEvent(() => {
    const el = ref.current;
    if (delayMs === null || !el || typeof el.animate !== 'function') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    el.animate([{ opacity: 0, transform: 'translateY(12px)' }, { opacity: 1, transform: 'none' }], {
      duration: 300,
      delay: delayMs,
      easing: 'ease-out',
      fill: 'backwards',
    });
  });
  // Only on mount: a card re-rendered by a live update must not flicker.
  useEffect(() => animateIn(), []);
  return ref;
}
