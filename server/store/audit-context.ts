/**
 * Issue #26: who is writing, for the audit trail (audit-sql.ts). The HTTP layer runs each request
 * inside `runWithAudit` (server/audit/context.ts); the store reads `currentAudit()` when it opens
 * a write transaction and hands it to the database (`passage.audit`), where the triggers on
 * `records` read it. Writes outside any request (seeding, scripts, tests) carry none: the database
 * records them as "system".
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuditContext {
  actor_id: string | null;
  actor_email: string | null;
  device_id: string | null;
  /** The client's address, as the sign-in lockout takes it (routes/context.ts sourceOf). */
  address: string | null;
  /**
   * The tablet's edit times (X-Passage-Edit-Times), aligned with the records of the request's
   * body: the store pairs them with the records of its next write, in order.
   */
  edit_times?: (string | null)[];
  /** The request resolves a conflict (X-Passage-Resolves-Conflict: 1): updates are 'resolve_conflict'. */
  resolves_conflict?: boolean;
  reason?: string | null;
}

const storage = new AsyncLocalStorage<AuditContext>();

export function runWithAudit<T>(context: AuditContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentAudit(): AuditContext | undefined {
  return storage.getStore();
}

/**
 * The `passage.audit` setting for a write of the records `ids` (in body order) at `at`: the
 * context's actor and, per record id, the tablet's edit time. '' when there is no context.
 */
export function auditSetting(ids: readonly string[], at: string): string {
  const c = currentAudit();
  if (!c) return JSON.stringify({ actor_id: null, actor_email: 'system', device_id: null, address: null, reason: null, at });
  const times: Record<string, string> = {};
  ids.forEach((id, i) => {
    const t = c.edit_times?.[i];
    if (typeof t === 'string') times[id] = t;
  });
  return JSON.stringify({
    actor_id: c.actor_id,
    actor_email: c.actor_email,
    device_id: c.device_id,
    address: c.address,
    reason: c.reason ?? null,
    resolves_conflict: c.resolves_conflict === true,
    times,
    at,
  });
}
