import { ClipboardCheck, Pencil, Trash2 } from 'lucide-react';
import type { SessionWithTally } from '../../data/queries/attendance';
import { formatDateTime } from '../../domain/format';
import { takenPhrase } from '../../domain/session-form';
import { Badge } from '../../ui/badge';
import { Button, buttonClass } from '../../ui/button';
import { PageLink } from '../../ui/page-link';
import { pageUrl } from '../../shell-api/paths';

/**
 * One session of the 'Sessions' list (issue #23.2): 'Session {n}', topic, 'MMM d, h:mm a' and how
 * much attendance it has, in words ('Not taken' / '18 of 22 marked, 82% attended'), not colour
 * alone; the link to take it, and Edit and Delete for those who schedule (issue #23.5).
 */
export function SessionRow({ tally, canTake, canManage, onEdit, onDelete }: {
  tally: SessionWithTally;
  canTake: boolean;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { session } = tally;
  const title = `Session ${session.session_number ?? '—'}`;
  const taken = tally.marked > 0;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <div className="min-w-48 flex-1">
        <p className="text-sm font-semibold text-slate-900">
          {title}
          {session.topic && <span className="font-normal text-slate-700"> · {session.topic}</span>}
        </p>
        <p className="mt-0.5 text-xs text-slate-500">{formatDateTime(session.scheduled_at, 'No date set')}</p>
        {/* A line of its own: beside the date it wrapped on some rows and not others at 1024 px. */}
        <Badge tone={taken ? 'green' : 'slate'} className="mt-1">
          {takenPhrase(tally)}
        </Badge>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        {canTake && (
          <PageLink href={pageUrl('TakeAttendance', session.id)} className={buttonClass('secondary')} aria-label={`Take attendance, ${title}`}>
            <ClipboardCheck className="h-4 w-4" aria-hidden="true" />
            Take attendance
          </PageLink>
        )}
        {canManage && (
          <>
            <Button variant="ghost" onClick={onEdit} aria-label={`Edit ${title}`}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit
            </Button>
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={onDelete} aria-label={`Delete ${title}`}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
