/**
 * A scripted audit server for component tests (issue #26): the platform client of the app over a
 * fetch that answers `GET …/entities/AuditEvent/v2/list` (the filter subset the Audit page sends:
 * equality, `$in`, `$gte`/`$lt`; sort `-created_date`, ties by id; cursor pages that carry the
 * query, as the contract says) and `POST …/functions/auditExport`. Every list request is recorded
 * with its parsed query; `offline` makes requests fail with no answer; `status` answers every list
 * with that error (403 for a coach).
 */
import { createPlatformClient, type PlatformClient } from '../../src/platform';
import type { AuditEventView } from '../../src/data/online/audit';

/** An event as the server answers it to the tablet (the page's view of `AuditEvent`). */
export type AuditRow = AuditEventView & { seq: number };

export interface ListRequest {
  q: Record<string, unknown> | null;
  sort: string | null;
  limit: number;
  cursor: string | null;
}

export interface AuditServer {
  events: AuditRow[];
  lists: ListRequest[];
  exports: Array<Record<string, unknown>>;
  offline: boolean;
  status: number | null;
  /** Every list request waits for this when set (a slow server). */
  gate: Promise<void> | null;
  client: PlatformClient;
}

let seq = 0;

/** One event with plain defaults: an update of a participant by the admin, online. */
export function auditRow(fields: Partial<AuditRow> = {}): AuditRow {
  seq++;
  const created = fields.created_date ?? new Date(Date.UTC(2026, 2, 10, 12, 0, seq)).toISOString();
  return {
    id: String(seq).padStart(24, '0'),
    created_date: created,
    seq,
    actor_id: 'a1',
    actor_email: 'admin@example.org',
    device_id: null,
    client_time: null,
    entity: 'Participant',
    record_id: 'p1',
    action: 'update',
    outcome: 'success',
    changes: null,
    reason: null,
    address: '10.0.0.5',
    ...fields,
  };
}

function matches(row: Record<string, unknown>, q: Record<string, unknown>): boolean {
  return Object.entries(q).every(([key, cond]) => {
    const value = row[key];
    if (cond && typeof cond === 'object' && !Array.isArray(cond)) {
      return Object.entries(cond as Record<string, unknown>).every(([op, arg]) => {
        switch (op) {
          case '$in':
            return (arg as unknown[]).includes(value);
          case '$gte':
            return String(value) >= String(arg);
          case '$lt':
            return String(value) < String(arg);
          default:
            throw new Error(`audit server: unsupported operator ${op}`);
        }
      });
    }
    return value === cond;
  });
}

export function auditServer(events: AuditRow[] = []): AuditServer {
  const server: AuditServer = { events, lists: [], exports: [], offline: false, status: null, gate: null, client: null as unknown as PlatformClient };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://passage.test');
    if (server.offline) throw new TypeError('Failed to fetch');
    if (url.pathname.endsWith('/functions/auditExport') && init.method === 'POST') {
      server.exports.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json(200, { ok: true });
    }
    if (!url.pathname.endsWith('/entities/AuditEvent/v2/list')) return json(404, { message: 'Not found' });
    const p = url.searchParams;
    const request: ListRequest = { q: p.get('q') ? JSON.parse(p.get('q')!) : null, sort: p.get('sort'), limit: Number(p.get('limit')), cursor: p.get('cursor') };
    server.lists.push(request);
    if (server.gate) await server.gate;
    if (server.status) return json(server.status, { message: server.status === 403 ? 'Administrators only' : 'Failed' });
    let q = request.q ?? {};
    let sort = request.sort ?? '-created_date';
    let offset = 0;
    if (request.cursor) ({ q, sort, offset } = JSON.parse(atob(request.cursor)) as { q: Record<string, unknown>; sort: string; offset: number });
    if (sort !== '-created_date') throw new Error(`audit server: unsupported sort ${sort}`);
    const rows = server.events
      .filter((e) => matches(e as unknown as Record<string, unknown>, q))
      .sort((a, b) => b.created_date.localeCompare(a.created_date) || b.id.localeCompare(a.id));
    const items = rows.slice(offset, offset + request.limit);
    const next = offset + items.length;
    const has_more = next < rows.length;
    return json(200, { items, has_more, next_cursor: has_more ? btoa(JSON.stringify({ q, sort, offset: next })) : null });
  };
  server.client = createPlatformClient({ serverUrl: 'http://passage.test', appId: 'passage', getToken: () => 'T', fetch: fetch as typeof globalThis.fetch, originUrl: 'x' });
  return server;
}
