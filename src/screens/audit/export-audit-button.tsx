import { Download } from 'lucide-react';
import { reportExport } from '../../data/commands/export-notice';
import { listAllAuditEvents } from '../../data/online/audit';
import { auditCsv } from '../../domain/audit-csv';
import { auditFileName, setFilters, type AuditFilters } from '../../domain/audit-event';
import { Button } from '../../ui/button';
import { downloadText } from '../parts/download-text';
import { useCommand } from '../parts/use-command';

/**
 * The most events one file holds: 20 requests of 1,000. A wider export is narrowed by the filters
 * (a month, a person); the toast says when the file stopped short.
 */
export const AUDIT_EXPORT_MAX = 20_000;

/**
 * Issue #26: the events of the current filter as CSV, newest first. The export is itself recorded
 * in the audit (`reportExport`, sent with the next sync) before the file is handed over.
 */
export function ExportAuditButton({ filters, disabled }: { filters: AuditFilters; disabled: boolean }) {
  const exportCsv = useCommand(
    async (data) => {
      const { events, truncated } = await listAllAuditEvents(data, filters, AUDIT_EXPORT_MAX);
      await reportExport(data, { kind: 'audit', rowCount: events.length, filters: setFilters(filters) });
      return { events, truncated };
    },
    {
      success: ({ events, truncated }) => (truncated ? `Exported the newest ${events.length.toLocaleString('en-US')} events. Narrow the filters for older ones.` : undefined),
      failure: 'Failed to export the audit trail',
      onSuccess: ({ events }) => downloadText(auditFileName(new Date()), auditCsv(events)),
    },
  );
  return (
    <Button variant="secondary" disabled={disabled || exportCsv.pending} onClick={() => void exportCsv.run()}>
      <Download className="h-4 w-4" aria-hidden="true" />
      {exportCsv.pending ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}
