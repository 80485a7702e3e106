import clsx from 'clsx';
import { MessageSquarePlus } from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
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

/** A tap on a row: `savedAt` is its record's time once the tablet has saved it. */
type Tapped = { id: number; to: AttendanceStatus; savedAt?: string };

/**
 * Whether the roster shows the tap's own record or a later one (its time is the tap's time on this
 * tablet; two taps in one millisecond share it, so then the status must be the tap's too).
 */
function caughtUp(tapped: Tapped, recordedAt: string | null, recordStatus: AttendanceStatus | null): boolean {
  if (tapped.savedAt === undefined || recordedAt === null) return false;
  return recordedAt > tapped.savedAt || (recordedAt === tapped.savedAt && recordStatus === tapped.to);
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
  // Taps are never dropped: one made while the last is saving waits its turn (serial), and the row
  // shows the newest. It gives way once the roster brings the record of the newest tap, or a later
  // one (another device's change); never an earlier tap's record, so two quick taps do not flicker.
  const [tapped, setTapped] = useState<Tapped | null>(null);
  const taps = useRef(0);
  const recordedAt = entry.record?.recorded_at ?? null;
  const recordStatus = entry.record?.status ?? null;
  useEffect(() => {
    if (tapped && caughtUp(tapped, recordedAt, recordStatus)) setTapped(null);
  }, [tapped, recordedAt, recordStatus]);
  const status = tapped?.to ?? recordStatus;
  const note = entry.record?.note ?? '';
  const [noting, setNoting] = useState(false);
  const mark = useCommand(
    async (data, tap: Tapped) => {
      try {
        const saved = await markAttendance(data, { sessionId, cohortId, participantId: entry.participantId, status: tap.to });
        setTapped((t) => (t?.id === tap.id ? { ...t, savedAt: saved.recorded_at ?? '' } : t));
        return saved;
      } catch (error) {
        setTapped((t) => (t?.id === tap.id ? null : t));
        throw error;
      }
    },
    { failure: `Failed to save attendance for ${name}`, serial: true },
  );
  const tap = (to: AttendanceStatus) => {
    const next: Tapped = { id: ++taps.current, to };
    setTapped(next);
    void mark.run(next);
  };
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
          onClick={() => tap(nextStatus(status))}
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
                onClick={() => (pressed ? undefined : tap(s))}
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
