import { useMemo } from 'react';
import type { EntityName } from '../../../shared/entities';
import { useAuditEvents } from '../../data/online/audit-hooks';
import { AUDIT_OFFLINE_MESSAGE } from '../../data/online/audit';
import { pagePath } from '../../shell-api/paths';
import { useIsAdmin } from '../../shell-api/current-user';
import { Button } from '../../ui/button';
import { Panel } from '../../ui/card';
import { PageLink } from '../../ui/page-link';
import { Skeleton } from '../../ui/skeleton';
import { AuditEventItem } from './audit-event-item';

/** Events shown at first; each "Show more" adds this many more. */
export const HISTORY_FIRST = 5;
export const HISTORY_MORE = 20;

/**
 * A record's History (issue #26), on ParticipantDetail and CohortDetail: who changed what and
 * when, newest first, an offline edit with its tablet time and its arrival. Administrators only
 * (the server refuses the audit to coaches): nothing at all for anyone else. Online only.
 */
export function RecordHistory({ entity, recordId }: { entity: EntityName; recordId: string }) {
  const isAdmin = useIsAdmin();
  const filters = useMemo(() => ({ entity, record: recordId }), [entity, recordId]);
  const history = useAuditEvents(filters, { enabled: isAdmin, pageSize: HISTORY_FIRST, morePageSize: HISTORY_MORE });
  if (!isAdmin || history.forbidden) return null;

  const allInAudit = `${pagePath('Audit')}?${new URLSearchParams({ entity, record: recordId })}`;
  let body;
  if (history.offline) {
    body = (
      <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {AUDIT_OFFLINE_MESSAGE}
      </p>
    );
  } else if (history.error) {
    body = (
      <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
        Could not load the history: {history.error}
      </p>
    );
  } else if (history.events === undefined) {
    body = (
      <div role="status" aria-label="Loading history" className="space-y-3">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-3/4" />
      </div>
    );
  } else if (history.events.length === 0) {
    body = <p className="text-sm text-slate-600">No changes recorded yet</p>;
  } else {
    body = (
      <>
        <ul>
          {history.events.map((event) => (
            <AuditEventItem key={event.id} event={event} showRecord={false} />
          ))}
        </ul>
        {history.hasMore && (
          <Button variant="secondary" className="mt-4 w-full" disabled={history.loadingMore} onClick={() => void history.loadMore()}>
            {history.loadingMore ? 'Loading...' : 'Show more'}
          </Button>
        )}
      </>
    );
  }
  return (
    <section aria-label="History">
      <Panel
        title="History"
        actions={
          <PageLink href={allInAudit} className="text-sm font-medium text-blue-700 underline-offset-2 hover:underline">
            Open in Audit
          </PageLink>
        }
      >
        {body}
      </Panel>
    </section>
  );
}
