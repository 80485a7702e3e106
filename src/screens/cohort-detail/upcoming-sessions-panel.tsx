import { CalendarClock } from 'lucide-react';
import type { Session } from '../../../shared/entities';
import { formatDateTime } from '../../domain/format';
import { pickUpcomingSessions } from '../../domain/upcoming-sessions';
import { Panel } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';

/** Upcoming Sessions (spec 2.10): the next 3 from now, or the first 3 by number when none is ahead. */
export function UpcomingSessionsPanel({ sessions }: { sessions: Session[] | undefined }) {
  if (!sessions) {
    return (
      <Panel title="Upcoming Sessions">
        <Skeleton className="h-16 w-full" />
      </Panel>
    );
  }
  const picked = pickUpcomingSessions(sessions, new Date());
  return (
    <Panel title="Upcoming Sessions">
      {picked.sessions.length === 0 ? (
        <p className="text-sm text-slate-500">No sessions scheduled</p>
      ) : (
        <>
          {picked.basis === 'by-number' && <p className="mb-2 text-xs text-slate-500">None ahead — showing the first sessions</p>}
          <ul className="space-y-3">
            {picked.sessions.map((s) => (
              <li key={s.id} className="flex gap-3 rounded-lg border border-slate-100 p-3">
                <CalendarClock className="mt-0.5 h-4 w-4 shrink-0 text-blue-700" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="text-sm font-semibold text-slate-900">Session {s.session_number ?? '—'}</p>
                  {s.topic && <p className="text-sm text-slate-700">{s.topic}</p>}
                  {s.scheduled_at && <p className="text-xs text-slate-500">{formatDateTime(s.scheduled_at)}</p>}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
