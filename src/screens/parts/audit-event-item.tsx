import { ArrowRight, Tablet } from 'lucide-react';
import type { AuditEventView } from '../../data/online/audit';
import { actionLabel, arrivedLater, changedFields, fieldLabel, formatAuditTime, valueText } from '../../domain/audit-event';
import { Badge } from '../../ui/badge';
import { PageLink } from '../../ui/page-link';
import { pageUrl, type PageName } from '../../shell-api/paths';

/** The page that shows a record of this entity, when there is one. */
const DETAIL_PAGE: Record<string, PageName> = {
  Participant: 'ParticipantDetail',
  Cohort: 'CohortDetail',
  Program: 'ProgramDetail',
  Site: 'SiteDetail',
  Session: 'TakeAttendance',
};

/** 'Tablet 1a2b3c4d' (the tablets panel's name for it), or null when the event came from no tablet. */
export function deviceLabel(deviceId: string | null): string | null {
  return deviceId ? `Tablet ${deviceId.slice(0, 8)}` : null;
}

function When({ event }: { event: AuditEventView }) {
  const arrived = <time dateTime={event.created_date}>{formatAuditTime(event.created_date)}</time>;
  if (!arrivedLater(event)) return arrived;
  return (
    <>
      Edited on the tablet at <time dateTime={event.client_time!}>{formatAuditTime(event.client_time)}</time>, arrived {arrived}
    </>
  );
}

function Value({ value }: { value: unknown }) {
  const text = valueText(value);
  return text ? <span className="break-words">{text}</span> : <span className="italic text-slate-500">empty</span>;
}

/** The fields the event changed: old → new for an update, the values of a create or a delete. */
function Changes({ changes, action }: { changes: AuditEventView['changes']; action: string }) {
  const fields = changedFields(changes, action);
  if (fields.length === 0) return null;
  return (
    <dl className="mt-2 grid content-start gap-1 rounded-lg bg-slate-50 p-3 text-sm @lg:grid-cols-[minmax(8rem,auto)_1fr] @lg:gap-x-4 @3xl:mt-1">
      {fields.map((f) => (
        <div key={f.field} className="contents">
          <dt className="font-medium text-slate-700">{fieldLabel(f.field)}</dt>
          <dd className="mb-1 min-w-0 text-slate-800 @lg:mb-0">
            {f.kind === 'change' ? (
              <span className="inline-flex flex-wrap items-center gap-1.5">
                <span className="text-slate-600 line-through decoration-slate-400">
                  <Value value={f.old} />
                </span>
                <ArrowRight aria-label="to" className="h-3.5 w-3.5 shrink-0 text-slate-500" />
                <Value value={f.new} />
              </span>
            ) : (
              <Value value={f.new} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * One event of the audit trail (issue #26): what happened to which record, who did it from which
 * tablet, when (an edit queued on a tablet: when it was made there and when it arrived), the
 * fields it changed and whether it succeeded. `showRecord` false on a record's own History.
 */
export function AuditEventItem({ event, recordTitle, showRecord = true }: { event: AuditEventView; recordTitle?: string; showRecord?: boolean }) {
  const device = deviceLabel(event.device_id);
  const page = event.entity ? DETAIL_PAGE[event.entity] : undefined;
  const record = event.record_id ? (recordTitle ?? event.record_id) : null;
  const failed = event.outcome === 'failure';
  return (
    <li className="@container border-t border-slate-100 py-4 first:border-t-0 first:pt-0 last:pb-0" aria-label={`${actionLabel(event.action)} by ${event.actor_email ?? 'unknown'}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 text-sm text-slate-900">
          <span className="font-semibold">{actionLabel(event.action)}</span>
          {showRecord && event.entity && (
            <>
              {' '}
              <span className="text-slate-600">{event.entity}</span>
              {record && (
                <>
                  {' · '}
                  {page && event.record_id ? (
                    <PageLink href={pageUrl(page, event.record_id)} className="font-medium text-blue-700 underline-offset-2 hover:underline">
                      {record}
                    </PageLink>
                  ) : (
                    <span className="break-all font-mono text-xs">{record}</span>
                  )}
                </>
              )}
            </>
          )}
        </p>
        <Badge tone={failed ? 'red' : 'green'}>{failed ? 'Failed' : 'Succeeded'}</Badge>
      </div>
      {/* Wide (a desktop's Audit page): who and when on the left, the changed fields beside them. */}
      <div className="grid @3xl:grid-cols-[minmax(16rem,22rem)_1fr] @3xl:gap-6">
        <div className="min-w-0">
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span className="break-all">{event.actor_email ?? 'Unknown person'}</span>
            {device && (
              <span className="inline-flex items-center gap-1">
                <Tablet aria-hidden="true" className="h-3.5 w-3.5" />
                {device}
              </span>
            )}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            <When event={event} />
          </p>
          {event.reason && <p className={failed ? 'mt-1 text-sm text-red-800' : 'mt-1 text-sm text-slate-600'}>{event.reason}</p>}
        </div>
        <Changes changes={event.changes} action={event.action} />
      </div>
    </li>
  );
}
