import { useState } from 'react';
import type { OutboxOp } from '../../data/queries/sync';
import { possibleDuplicateIds } from '../../data/commands/possible-duplicate';
import { discardOp, editRejectedOp, retryOp } from '../../data/commands/sync-ops';
import { unreachable } from '../../domain/unreachable';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorLine } from '../parts/present-error';
import { useCommand } from '../parts/use-command';
import { describeOp, entityLabel } from './describe-op';
import { opTime } from './op-time';
import { PossibleDuplicateReview } from './possible-duplicate-review';
import { RejectedOpEditor } from './rejected-op-editor';

/** What the Sync page's actions say when they fail (Passage's own page: the spec has no words for it). */
const FAILED = 'That did not work. Please try again.';

/** What discarding undoes, in words: a discarded create takes what depends on it along (S8). */
function discardWarning(op: OutboxOp): string {
  switch (op.kind) {
    case 'create':
      return 'The new record is removed from this device, together with changes that depend on it (for example its enrollments). This cannot be undone.';
    case 'update':
      return 'The fields go back to the values they had before this change. This cannot be undone.';
    case 'delete':
      return 'The record is put back on this device as it was before it was deleted.';
    default:
      return unreachable(op.kind, 'op kind');
  }
}

/** One change the server refused: its message, and Retry / Edit / Discard (S8). */
export function RejectedOpCard({ op, title }: { op: OutboxOp; title: string | null | undefined }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [editFailure, setEditFailure] = useState<string | null>(null);
  const seq = op.seq!;
  const retry = useCommand((data) => retryOp(data, seq), { success: 'Sending the change again', failure: FAILED });
  const discard = useCommand((data) => discardOp(data, seq), { success: 'Change discarded', failure: FAILED, onSuccess: () => setConfirming(false) });
  const edit = useCommand((data, changed: Record<string, unknown>) => editRejectedOp(data, seq, changed), {
    success: 'Change saved; sending it again',
    failure: 'The change could not be saved.',
    onSuccess: () => setEditing(false),
    // In the editor, beside the fields the coach is correcting.
    onError: (presented) => setEditFailure(errorLine(presented)),
  });
  const busy = retry.pending || discard.pending;
  const duplicateOf = possibleDuplicateIds(op);

  // undefined: the name is still being read; null: the record has none.
  const name = title === undefined ? '' : (title ?? 'Unnamed record');
  return (
    <li className="rounded-lg border border-red-200 bg-white p-4" aria-label={`Rejected: ${entityLabel(op.entity)} ${name}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone="red">{entityLabel(op.entity)}</Badge>
            <span className="font-medium text-slate-900">{name}</span>
          </p>
          <p className="mt-1 text-sm text-slate-700">{describeOp(op)}</p>
          <p className="mt-2 text-sm text-red-800">
            <span className="font-medium">The server said:</span> {op.last_error?.message ?? 'No reason given'}
            {op.last_error?.status ? ` (${op.last_error.status})` : ''}
          </p>
        </div>
        <p className="text-sm text-slate-600">{opTime(op.created_at)}</p>
      </div>
      {!editing && duplicateOf.length > 0 && <PossibleDuplicateReview seq={seq} ids={duplicateOf} busy={busy} />}
      {!editing && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => void retry.run()}>
            Retry
          </Button>
          {op.kind !== 'delete' && (
            <Button variant="secondary" disabled={busy} onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          <Button variant="danger" disabled={busy} onClick={() => setConfirming(true)}>
            Discard
          </Button>
        </div>
      )}
      {editing && (
        <RejectedOpEditor
          data={op.data}
          saving={edit.pending}
          failure={editFailure}
          onCancel={() => setEditing(false)}
          onSave={(changed) => {
            setEditFailure(null);
            void edit.run(changed);
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title="Discard this change?"
        description={discardWarning(op)}
        confirmLabel="Discard"
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void discard.run()}
      />
    </li>
  );
}
