/**
 * Issue #26: every CSV export reports itself to the audit (who, what kind, how many rows, which
 * filter). The notice is written to the device first, so it survives a closed tab and an offline
 * day, and the sync engine sends it at its next contact (sync/export-notices.ts) — about a second
 * from now when online.
 */
import { notifyLocalWrite, type DataContext } from '../context';
import { guardQuota } from '../errors';
import { queueExportNotice } from '../sync/export-notices';

/** What was exported: `attendance` (a cohort's), `audit` (the Audit page's list). */
export type ExportKind = 'attendance' | 'audit';

export interface ExportReport {
  kind: ExportKind;
  rowCount: number;
  /** The filter that chose the rows: ids, dates, an e-mail; never the rows' own contents. */
  filters?: Record<string, unknown>;
}

export async function reportExport(ctx: DataContext, report: ExportReport): Promise<void> {
  if (!ctx.userId) return; // signed out: there is no one to report and no one to send it
  const notice = {
    kind: report.kind,
    row_count: report.rowCount,
    exported_at: new Date(ctx.now()).toISOString(),
    ...(report.filters && Object.keys(report.filters).length > 0 ? { filters: report.filters } : {}),
  };
  await guardQuota(() => queueExportNotice(ctx.db, { id: ctx.newUuid(), user_id: ctx.userId!, notice }));
  notifyLocalWrite(ctx);
}
