/**
 * Issue #26: the Audit page's events as CSV. Pure, and written with the attendance CSV's cell rule
 * (attendance-csv.ts `csvCell`: RFC 4180 quoting, CRLF, a cell that could start a formula gets a
 * leading apostrophe); the screen downloads it with the byte-order mark (parts/download-text.ts).
 * Times are ISO 8601 in UTC: an audit file is read next to server logs and other offices' records.
 */
import { csvCell } from './attendance-csv';
import { actionLabel, changedFields, valueText } from './audit-event';

export const AUDIT_CSV_COLUMNS = [
  'Arrived (UTC)',
  'Edited on tablet (UTC)',
  'Seq',
  'Person',
  'Person ID',
  'Device',
  'Action',
  'Entity',
  'Record ID',
  'Outcome',
  'Reason',
  'Changes',
  'Address',
] as const;

export interface AuditCsvEvent {
  created_date: string;
  client_time: string | null;
  seq: number | null;
  actor_email: string | null;
  actor_id: string | null;
  device_id: string | null;
  action: string;
  entity: string | null;
  record_id: string | null;
  outcome: string;
  reason: string | null;
  changes: Record<string, unknown> | null;
  address: string | null;
}

/** 'phone: 555-0100 → 555-0199; address: (empty) → 12 Main St' — one cell for every change. */
export function changesText(changes: unknown, action?: string): string {
  const show = (v: unknown) => valueText(v) || '(empty)';
  return changedFields(changes, action)
    .map((c) => (c.kind === 'change' ? `${c.field}: ${show(c.old)} → ${show(c.new)}` : `${c.field}: ${show(c.new)}`))
    .join('; ');
}

/** The whole file, in the order given (the page's: newest first). */
export function auditCsv(events: readonly AuditCsvEvent[]): string {
  const lines = [AUDIT_CSV_COLUMNS.map(csvCell).join(',')];
  for (const e of events) {
    lines.push(
      [
        e.created_date,
        e.client_time ?? '',
        e.seq ?? '',
        e.actor_email ?? '',
        e.actor_id ?? '',
        e.device_id ?? '',
        actionLabel(e.action),
        e.entity ?? '',
        e.record_id ?? '',
        e.outcome === 'failure' ? 'Failure' : 'Success',
        e.reason ?? '',
        changesText(e.changes, e.action),
        e.address ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
