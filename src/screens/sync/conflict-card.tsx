import { formatDateTime } from '../../domain/format';
import type { ConflictRow } from '../../data/queries/sync';
import { resolveConflict } from '../../data/commands/sync-ops';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { useCommand } from '../parts/use-command';
import { entityLabel, fieldLabel, showValue } from './describe-op';

/**
 * A field both this device and someone else changed (S4), or a record deleted on the server while
 * it had changes here (S6). Passage kept this device's value; the coach confirms or takes the other.
 */
export function ConflictCard({ conflict, title }: { conflict: ConflictRow; title: string | null | undefined }) {
  const resolve = useCommand((data, choice: 'local' | 'server') => resolveConflict(data, conflict.id!, choice), {
    success: (_, choice) => (choice === 'local' ? 'Kept your value' : "Using the server's value"),
    // Passage's own page: the spec has no words for it.
    failure: 'That did not work. Please try again.',
  });
  const busy = resolve.pending;
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
        <Button variant="secondary" disabled={busy} onClick={() => void resolve.run('local')}>
          Keep mine
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => void resolve.run('server')}>
          Use server's
        </Button>
      </div>
    </li>
  );
}
