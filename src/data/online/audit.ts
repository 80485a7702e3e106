/**
 * Issue #26: the audit trail, read from the server (administrators only: the entity API's
 * read-only `AuditEvent`, coaches get 403). Online only, like the approvals and the tablets: the
 * events are the server's record, never mirrored on a tablet. Newest first, in cursor pages
 * (`v2/list`), so a page is as quick on a million events as on ten.
 */
import type { DataContext } from '../context';
import { OfflineError } from '../errors';
import type { Row } from '../platform-like';
import { auditQuery, type AuditFilters } from '../../domain/audit-event';

import { AUDIT_ENTITY, type AuditEvent } from '../../../shared/audit';

/**
 * One event as the Audit page and the History sections read it: shared/audit.ts `AuditEvent`
 * without the chain's hashes (the page never shows them), its `action` any string (a newer
 * server's action reads as itself) and its `seq` possibly missing (an older answer).
 */
export type AuditEventView = Omit<AuditEvent, 'hash' | 'prev_hash' | 'updated_date' | 'action' | 'seq' | 'changes'> & {
  action: string;
  seq: number | null;
  changes: Record<string, unknown> | null;
};

export interface AuditPage {
  events: AuditEventView[];
  /** Pass to the next call for the page after this one; null at the end. */
  cursor: string | null;
}

/** What the Audit page and the History sections say when the server cannot be reached. */
export const AUDIT_OFFLINE_MESSAGE = 'The audit trail can be read when online.';

/** Newest first: the server's index is (field, created_date, id), and ids follow the chain. */
export const AUDIT_SORT = '-created_date';

/** The most rows one page may ask for (platform-contract: v2/list's maximum is 5,000). */
const MAX_PAGE = 1000;

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function toAuditEvent(row: Row): AuditEventView {
  return {
    id: row.id,
    created_date: String(row.created_date ?? ''),
    seq: typeof row.seq === 'number' ? row.seq : null,
    actor_id: str(row.actor_id),
    actor_email: str(row.actor_email),
    device_id: str(row.device_id),
    client_time: str(row.client_time),
    entity: str(row.entity),
    record_id: str(row.record_id),
    action: String(row.action ?? ''),
    outcome: row.outcome === 'failure' ? 'failure' : 'success',
    changes: row.changes && typeof row.changes === 'object' && !Array.isArray(row.changes) ? (row.changes as Record<string, unknown>) : null,
    reason: str(row.reason),
    address: str(row.address),
  };
}

/**
 * One page of events matching `filters`, newest first. `cursor` continues a listing (the server's
 * cursor carries the query). Offline, or with no answer: OfflineError. A refusal (403 for a coach)
 * is passed on as the platform client's error, with the server's message.
 */
export async function listAuditEvents(ctx: DataContext, filters: Partial<AuditFilters>, options: { cursor?: string | null; limit: number }): Promise<AuditPage> {
  const api = ctx.client?.entities(AUDIT_ENTITY);
  if (!api?.listV2 || isOffline()) throw new OfflineError(AUDIT_OFFLINE_MESSAGE);
  const limit = Math.min(Math.max(1, options.limit), MAX_PAGE);
  try {
    // A later page needs only the cursor (it carries the query and sort; platform-contract 2).
    const page = options.cursor ? await api.listV2({ cursor: options.cursor, limit }) : await api.listV2({ q: auditQuery(filters), sort: AUDIT_SORT, limit });
    return { events: page.items.map(toAuditEvent), cursor: page.has_more ? page.next_cursor : null };
  } catch (error) {
    // The platform client's PlatformError: status undefined means no HTTP answer arrived.
    if ((error as { status?: number } | null)?.status === undefined) throw new OfflineError(AUDIT_OFFLINE_MESSAGE);
    throw error;
  }
}

/** Every event of the filter, newest first, up to `max` (the CSV export); `truncated` when more exist. */
export async function listAllAuditEvents(ctx: DataContext, filters: Partial<AuditFilters>, max: number): Promise<{ events: AuditEventView[]; truncated: boolean }> {
  const events: AuditEventView[] = [];
  let cursor: string | null = null;
  do {
    const page: AuditPage = await listAuditEvents(ctx, filters, { cursor, limit: Math.min(MAX_PAGE, max - events.length) });
    events.push(...page.events);
    cursor = page.cursor;
  } while (cursor && events.length < max);
  return { events, truncated: cursor !== null };
}
