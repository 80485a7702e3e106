import clsx from 'clsx';
import { MessageSquarePlus } from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import { ATTENDANCE_STATUSES, type AttendanceStatus } from '../../../shared/entities';
import { markAttendance, setAttendanceNote } from '../../data/commands/attendance';
import type { EditBasis } from '../../data/commands/record-writes';
import type { RosterEntry } from '../../data/queries/attendance';
import { ATTENDANCE_LABEL, nextStatus } from '../../domain/attendance';
import { humanize } from '../../domain/format';
import { personName } from '../../domain/record-title';
import { Badge } from '../../ui/badge';
import { useCommand } from '../parts/use-command';
import { NoteForm } from './note-form';
import { StatusChip } from './status-chip';
import { STATUS_LOOK } from './status-look';

/** 'Withdrawn', 'Graduated' — why someone listed for their record here is no longer on the cohort. */
function inactiveLabel(entry: RosterEntry): string {
  const status = entry.enrollment?.enrollment_status;
  if (!status) return 'Not enrolled';
  const words = humanize(status);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One participant at one session (issue #23.3). The row's main button cycles the status
 * (unmarked → Present → Late → Excused → Absent → Present, domain `nextStatus`); the four buttons
 * beside it set one directly, so an exception after "Mark everyone present" is one tap. Each tap
 * is one local write (mirror + queue, S1) and shows at once through the live roster: no toast per
 * tap (30 would cover the screen), a failure through presentError. Read-only rows show the status
 * alone. The note ('Add note', the speech-bubble button) is offered once the participant is marked:
 * a note on an unmarked row would mark them present (setAttendanceNote).
 */
type RowProps = { entry: RosterEntry; sessionId: string; cohortId: string; editable: boolean };

export const RosterRow = memo(function RosterRow({ entry, sessionId, cohortId, editable }: RowProps) {
  const name = personName(entry.participant as Record<string, unknown> | null) ?? 'Participant';
  const uid = entry.participant?.academy_uid;
  // The tapped status shows at once, before its write and the live roster's answer come back (the
  // tap is saved on the tablet a few milliseconds later; a failure puts the row back and says so).
  // It gives way once the roster brings a record tapped after it was made (its own, or a later one).
  const [tapped, setTapped] = useState<{ to: AttendanceStatus; before: string | null; saved: boolean } | null>(null);
  const recordedAt = entry.record?.recorded_at ?? null;
  useEffect(() => {
    if (tapped?.saved && recordedAt !== tapped.before) setTapped(null);
  }, [tapped, recordedAt]);
  const status = tapped?.to ?? entry.record?.status ?? null;
  const note = entry.record?.note ?? '';
  const [noting, setNoting] = useState(false);
  const mark = useCommand(
    async (data, to: AttendanceStatus) => {
      // The write starts first, then the row shows the tap: the device's storage works while the
      // screen draws.
      const saving = markAttendance(data, { sessionId, cohortId, participantId: entry.participantId, status: to });
      setTapped({ to, before: recordedAt, saved: false });
      try {
        const saved = await saving;
        setTapped((t) => (t && t.to === to ? { ...t, saved: true } : t));
        return saved;
      } catch (error) {
        setTapped(null);
        throw error;
      }
    },
    { failure: `Failed to save attendance for ${name}` },
  );
  const saveNote = useCommand((data, text: string, basis?: EditBasis) => setAttendanceNote(data, sessionId, entry.participantId, text, basis), {
    failure: `Failed to save the note for ${name}`,
    onSuccess: () => setNoting(false),
  });

  const who = (
    <span className="min-w-0">
      <span className="block break-words text-base font-semibold text-slate-900">{name}</span>
      <span className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        {uid && <span className="whitespace-nowrap">UID: {uid}</span>}
        {entry.inactive && <Badge tone="red">{inactiveLabel(entry)}</Badge>}
      </span>
    </span>
  );

  return (
    <li aria-label={name} className={clsx('flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-3 sm:px-4', entry.inactive && 'bg-slate-50')}>
      {editable ? (
        <button
          type="button"
          onClick={() => void mark.run(nextStatus(status))}
          aria-label={`${name}: ${status ? ATTENDANCE_LABEL[status] : 'Not marked'}. Tap for ${ATTENDANCE_LABEL[nextStatus(status)]}`}
          className="flex min-h-14 min-w-0 flex-1 basis-56 items-center gap-3 rounded-lg px-2 py-1.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          <StatusChip status={status} className="w-[7.5rem]" />
          {who}
        </button>
      ) : (
        <div className="flex min-h-14 min-w-0 flex-1 basis-56 items-center gap-3 px-2 py-1.5">
          <StatusChip status={status} className="w-[7.5rem]" />
          {who}
        </div>
      )}
      {editable && (
        <div role="group" aria-label={`Set ${name}'s status`} className="flex flex-wrap gap-1.5">
          {ATTENDANCE_STATUSES.map((s) => {
            const Icon = STATUS_LOOK[s].icon;
            const pressed = status === s;
            return (
              <button
                key={s}
                type="button"
                aria-pressed={pressed}
                onClick={() => void (pressed ? undefined : mark.run(s))}
                className={clsx(
                  'inline-flex min-h-14 w-[4.5rem] flex-col items-center justify-center gap-0.5 rounded-lg px-1 text-xs font-semibold ring-1 ring-inset',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                  pressed ? STATUS_LOOK[s].solid : STATUS_LOOK[s].outline,
                )}
              >
                <Icon aria-hidden="true" className="h-5 w-5" />
                {ATTENDANCE_LABEL[s]}
              </button>
            );
          })}
        </div>
      )}
      {editable && status && !noting && (
        <button
          type="button"
          onClick={() => setNoting(true)}
          aria-label={`${note ? 'Edit note' : 'Add note'} for ${name}`}
          title={note ? 'Edit note' : 'Add note'}
          className="inline-flex min-h-14 min-w-12 items-center justify-center rounded-lg text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          <MessageSquarePlus aria-hidden="true" className="h-5 w-5" />
        </button>
      )}
      {noting ? (
        <NoteForm
          name={name}
          record={entry.record}
          pending={saveNote.pending}
          onSave={(text, basis) => void saveNote.run(text, basis)}
          onCancel={() => setNoting(false)}
        />
      ) : (
        note && <p className="basis-full text-sm text-slate-700 sm:pl-[8.75rem]">Note: {note}</p>
      )}
    </li>
  );
}, sameRow);

/**
 * A tap changes one row: the others keep their rendering (the live roster hands out new objects
 * for every row at each change, so compare what a row shows).
 */
function sameRow(a: RowProps, b: RowProps): boolean {
  const ra = a.entry.record;
  const rb = b.entry.record;
  return (
    a.sessionId === b.sessionId &&
    a.cohortId === b.cohortId &&
    a.editable === b.editable &&
    a.entry.participantId === b.entry.participantId &&
    a.entry.inactive === b.entry.inactive &&
    a.entry.enrollment?.enrollment_status === b.entry.enrollment?.enrollment_status &&
    a.entry.participant?.first_name === b.entry.participant?.first_name &&
    a.entry.participant?.last_name === b.entry.participant?.last_name &&
    a.entry.participant?.academy_uid === b.entry.participant?.academy_uid &&
    ra?.status === rb?.status &&
    ra?.recorded_at === rb?.recorded_at &&
    ra?.note === rb?.note
  );
}
