import { CalendarPlus, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Cohort, Session } from '../../../shared/entities';
import type { EditBasis } from '../../data/commands/record-writes';
import { createSession, deleteSession, updateSession } from '../../data/commands/sessions';
import { useSessionsWithAttendance, type SessionWithTally } from '../../data/queries/attendance';
import type { CohortRole } from '../../domain/cohort-role';
import { canManageSessions, canTakeAttendance } from '../../domain/cohort-role';
import { formatDateTime } from '../../domain/format';
import { emptySessionDraft } from '../../domain/session-form';
import { nextSessionNumber } from '../../domain/session-plan';
import { Button } from '../../ui/button';
import { Panel } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { SkeletonCards } from '../../ui/skeleton';
import { useCommand } from '../parts/use-command';
import { SessionEditor } from './session-editor';
import { SessionRow } from './session-row';
import { WeeklySessionsDialog } from './weekly-sessions-dialog';

type Fields = Pick<Session, 'session_number' | 'topic' | 'scheduled_at'>;

const recordsPhrase = (n: number) => (n === 1 ? '1 attendance record' : `${n} attendance records`);

/**
 * Issue #23.2 and #23.5: every session of the cohort in order (domain `sortSessions`), each with its
 * attendance; administrators and the lead coach add, edit, delete and generate them. A delete asks
 * first and says when attendance was taken; the data layer (and the server) then refuse it, and the
 * refusal's words show under the failure (InUseError, through useCommand).
 */
export function SessionsPanel({ cohort, role }: { cohort: Cohort; role: CohortRole }) {
  const sessions = useSessionsWithAttendance(cohort.id);
  const manage = canManageSessions(role);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SessionWithTally | null>(null);
  const [generating, setGenerating] = useState(false);

  const create = useCommand((data, fields: Fields) => createSession(data, { cohort_id: cohort.id, ...fields }), {
    success: 'Session created successfully!',
    failure: 'Failed to create session. Please try again.',
    onSuccess: () => setAdding(false),
  });
  const update = useCommand((data, id: string, patch: Partial<Fields>, basis: EditBasis) => updateSession(data, id, patch, basis), {
    success: 'Session updated successfully!',
    failure: 'Failed to update session. Please try again.',
    onSuccess: () => setEditing(null),
  });
  const remove = useCommand((data, id: string) => deleteSession(data, id), {
    success: 'Session deleted successfully!',
    failure: 'Failed to delete session.',
  });

  const all = sessions?.map((s) => s.session) ?? [];
  const othersThan = (id: string | null) => all.filter((s) => s.id !== id);
  const deletingTitle = deleting ? `Session ${deleting.session.session_number ?? '—'}` : '';

  // Closed either way: on a refusal the toast says why, and the row stays as it was.
  async function confirmDelete() {
    if (!deleting) return;
    await remove.run(deleting.session.id);
    setDeleting(null);
  }

  return (
    <Panel
      title={`Sessions (${sessions ? sessions.length : '…'})`}
      actions={
        manage && (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setGenerating(true)} disabled={!sessions}>
              <CalendarPlus className="h-4 w-4" aria-hidden="true" />
              Generate weekly sessions
            </Button>
            <Button variant={adding ? 'secondary' : 'primary'} onClick={() => setAdding((v) => !v)} aria-expanded={adding} disabled={!sessions}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              Add Session
            </Button>
          </div>
        )
      }
    >
      {adding && sessions && (
        <div className="mb-4">
          <SessionEditor
            name="Add session"
            initial={emptySessionDraft(nextSessionNumber(all))}
            others={all}
            labels={{ submit: 'Add Session', pending: 'Adding...' }}
            pending={create.pending}
            onSubmit={(fields) => void create.run(fields)}
            onCancel={() => setAdding(false)}
          />
        </div>
      )}
      {!sessions ? (
        <SkeletonCards count={2} className="space-y-3" label="Loading sessions" />
      ) : sessions.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No sessions scheduled</p>
      ) : (
        <ol aria-label="Sessions" className="divide-y divide-slate-100">
          {sessions.map((tally) => (
            <li key={tally.session.id} className="py-3">
              {editing === tally.session.id ? (
                <SessionEditor
                  name={`Edit Session ${tally.session.session_number ?? ''}`.trim()}
                  record={tally.session}
                  others={othersThan(tally.session.id)}
                  labels={{ submit: 'Save', pending: 'Saving...' }}
                  pending={update.pending}
                  onSave={(patch, basis) => void update.run(tally.session.id, patch, basis)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <SessionRow
                  tally={tally}
                  canTake={canTakeAttendance(role)}
                  canManage={manage}
                  onEdit={() => setEditing(tally.session.id)}
                  onDelete={() => setDeleting(tally)}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {generating && sessions && <WeeklySessionsDialog cohort={cohort} firstNumber={nextSessionNumber(all)} existing={all} onClose={() => setGenerating(false)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure?"
        description={
          deleting && (
            <>
              This will permanently delete {deletingTitle}
              {deleting.session.topic ? ` (${deleting.session.topic})` : ''}
              {deleting.session.scheduled_at ? `, ${formatDateTime(deleting.session.scheduled_at)}` : ''}.
              {deleting.marked > 0 && (
                <strong className="mt-2 block font-semibold text-red-800">
                  Attendance was taken at this session ({recordsPhrase(deleting.marked)}). A session with attendance cannot be deleted while that attendance exists.
                </strong>
              )}
            </>
          )
        }
        confirmLabel="Delete"
        busy={remove.pending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => !remove.pending && setDeleting(null)}
      />
    </Panel>
  );
}
