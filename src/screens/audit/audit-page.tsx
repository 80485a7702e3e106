import { useEffect, useMemo, useState } from 'react';
import { ENTITY_NAMES, type EntityName } from '../../../shared/entities';
import { AUDIT_OFFLINE_MESSAGE } from '../../data/online/audit';
import { useAuditEvents } from '../../data/online/audit-hooks';
import { useRecordTitles } from '../../data/queries/sync';
import { NO_AUDIT_FILTERS, type AuditFilters } from '../../domain/audit-event';
import { useIsAdmin } from '../../shell-api/current-user';
import { useListSearch } from '../../shell-api/list-search';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { SkeletonCards } from '../../ui/skeleton';
import { AuditEventItem } from '../parts/audit-event-item';
import { AuditFiltersBar } from './audit-filters';
import { ExportAuditButton } from './export-audit-button';

const KEYS = ['actor', 'entity', 'record', 'action', 'from', 'to'] as const;
/** Events per page; "Load more" adds as many. */
export const AUDIT_PAGE_SIZE = 50;
/** Typed text is asked for once the typing pauses, not at every key. */
const SETTLE_MS = 400;

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const isEntity = (name: string | null): name is EntityName => !!name && (ENTITY_NAMES as readonly string[]).includes(name);

/**
 * Audit (issue #26, Passage's own page): the server's audit trail for administrators — who
 * changed what, when and from which tablet, every sign-in, approval and export. Filters live in
 * the address (a link from a record's History opens its events); online only.
 */
export function AuditPage() {
  const isAdmin = useIsAdmin();
  const [values, setValue] = useListSearch('Audit', KEYS);
  const filters = useMemo<AuditFilters>(() => ({ ...NO_AUDIT_FILTERS, ...values }), [values]);
  const settled = useSettled(filters, SETTLE_MS);
  const list = useAuditEvents(settled, { enabled: isAdmin, pageSize: AUDIT_PAGE_SIZE });
  const refs = useMemo(
    () => (list.events ?? []).flatMap((e) => (isEntity(e.entity) && e.record_id ? [{ entity: e.entity, record_id: e.record_id }] : [])),
    [list.events],
  );
  const titles = useRecordTitles(refs);

  if (!isAdmin || list.forbidden) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-xl font-semibold text-slate-900">You don't have permission to view this page</h1>
      </div>
    );
  }

  const clear = () => KEYS.forEach((key) => setValue(key, '', { now: true }));
  let body;
  if (list.offline) {
    body = (
      <p role="status" className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900">
        You are offline. {AUDIT_OFFLINE_MESSAGE}
      </p>
    );
  } else if (list.error) {
    body = (
      <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-800">
        Could not load the audit trail: {list.error}
      </p>
    );
  } else if (list.events === undefined) {
    body = <SkeletonCards count={3} className="grid gap-4" label="Loading events" />;
  } else if (list.events.length === 0) {
    body = <EmptyState title="No events match these filters" />;
  } else {
    body = (
      <>
        <Card className="px-5 py-4">
          <ul aria-label="Events">
            {list.events.map((event) => (
              <AuditEventItem
                key={event.id}
                event={event}
                recordTitle={isEntity(event.entity) && event.record_id ? titles?.get(`${event.entity}:${event.record_id}`) : undefined}
              />
            ))}
          </ul>
        </Card>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" aria-live="polite">
            {list.events.length === 1 ? '1 event' : `${list.events.length.toLocaleString('en-US')} events`}
            {list.hasMore ? ', newest first; older ones follow' : ', newest first'}
          </p>
          {list.hasMore && (
            <Button variant="secondary" disabled={list.loadingMore} onClick={() => void list.loadMore()}>
              {list.loadingMore ? 'Loading...' : 'Load more'}
            </Button>
          )}
        </div>
      </>
    );
  }

  return (
    <div>
      <PageHeader
        title="Audit"
        subtitle="Who changed what, when, and from which tablet"
        actions={<ExportAuditButton filters={settled} disabled={list.offline || !list.events?.length} />}
      />
      <AuditFiltersBar values={filters} onChange={(key, value, now) => setValue(key, value, { now })} onClear={clear} />
      {body}
    </div>
  );
}
