import type { OutboxOp } from '../../data/queries/sync';
import { Panel } from '../../ui/card';
import { Badge } from '../../ui/badge';
import { describeOp, entityLabel } from './describe-op';
import { opTime } from './op-time';
import { refKey } from '../../data/queries/sync';

/** Changes still queued: what, on which record, when, and why the last attempt failed if it did. */
export function PendingList({ ops, titles }: { ops: OutboxOp[]; titles: Map<string, string> | undefined }) {
  return (
    <Panel title={`Waiting to sync (${ops.length})`}>
      {ops.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing is waiting. Every change made on this device has reached the server.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Changes waiting to sync">
          {ops.map((op) => (
            <li key={op.seq} className="flex flex-wrap items-start justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <Badge tone="blue">{entityLabel(op.entity)}</Badge>
                  <span className="font-medium text-slate-900">{titles ? (titles.get(refKey(op)) ?? 'Unnamed record') : ''}</span>
                </p>
                <p className="mt-1 text-sm text-slate-700">{describeOp(op)}</p>
                {op.last_error && <p className="mt-1 text-sm text-amber-800">Last attempt failed ({op.last_error.message}); it will be tried again.</p>}
              </div>
              <div className="text-right text-sm text-slate-600">
                <p>{opTime(op.created_at)}</p>
                {op.state === 'inflight' && <p className="text-blue-700">Sending…</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
