import { useState } from 'react';
import { toast } from 'sonner';
import { formatDateTime } from '../../domain/format';
import type { ConflictRow } from '../../data/db';
import { resolveConflict } from '../../data/sync/op-actions';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { entityLabel, fieldLabel, showValue } from './describe-op';

/**
 * A field both this device and someone else changed (S4), or a record deleted on the server while
 * it had changes here (S6). Passage kept this device's value; the coach confirms or takes the other.
 */
export function ConflictCard({ conflict, title }: { conflict: ConflictRow; title: string | null | undefined }) {
  const [busy, setBusy] = useState(false);
  const choose = async (choice: 'local' | 'server') => {
    setBusy(true);
    try {
      await resolveConflict(conflict.id!, choice);
      toast.success(choice === 'local' ? 'Kept your value' : "Using the server's value");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  // undefined: the name is still being read; null: the record has none.
  const name = title === undefined ? '' : (title ?? 'Unnamed record');
  const when = conflict.server_updated_date ? formatDateTime(conflict.server_updated_date) : null;

  return (
    <li className="rounded-lg border border-amber-200 bg-white p-4" aria-label={`Conflict: ${entityLabel(conflict.entity)} ${name}`}>
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone="amber">{entityLabel(conflict.entity)}</Badge>
        <span className="font-medium text-slate-900">{name}</span>
      </p>
      {conflict.kind === 'field' ? (
        <>
          <p className="mt-1 text-sm text-slate-700">
            <span className="font-medium capitalize">{fieldLabel(conflict.field)}</span> was changed here and on the server{when ? ` (server: ${when})` : ''}.
          </p>
          <dl className="mt-3 grid gap-3 sm:grid-cols-2">
            <div className="rounded-lg bg-blue-50 p-3">
              <dt className="text-xs font-semibold uppercase text-blue-900">Yours</dt>
              <dd className="mt-1 break-words text-slate-900">{showValue(conflict.local_value)}</dd>
            </div>
            <div className="rounded-lg bg-slate-100 p-3">
              <dt className="text-xs font-semibold uppercase text-slate-700">Server's</dt>
              <dd className="mt-1 break-words text-slate-900">{showValue(conflict.server_value)}</dd>
            </div>
          </dl>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-700">
          This record was deleted on the server while it had changes on this device. Keep mine creates it again with this device's values; Use server's removes it here too.
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => void choose('local')}>
          Keep mine
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => void choose('server')}>
          Use server's
        </Button>
      </div>
    </li>
  );
}
