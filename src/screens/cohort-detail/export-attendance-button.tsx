import { Download } from 'lucide-react';
import type { Cohort } from '../../../shared/entities';
import { attendanceForExport } from '../../data/queries/attendance';
import { reportExport } from '../../data/commands/export-notice';
import { attendanceCsv, attendanceFileName } from '../../domain/attendance-csv';
import { Button } from '../../ui/button';
import { downloadText } from '../parts/download-text';
import { useCommand } from '../parts/use-command';

/** Issue #23.4: administrators download the cohort's attendance as `{cohort_code}-attendance-{yyyy-MM-dd}.csv`. */
export function ExportAttendanceButton({ cohort, disabled }: { cohort: Cohort; disabled: boolean }) {
  // Not a write, but the same one path for pending and failure (a read the tablet could not do).
  // Issue #26: the export is recorded on the tablet for the audit before the file is handed over.
  const exportCsv = useCommand(
    async (data) => {
      const rows = await attendanceForExport(data, cohort.id);
      await reportExport(data, { kind: 'attendance', rowCount: rows.length, filters: { cohort_id: cohort.id } });
      return rows;
    },
    {
      failure: 'Failed to export attendance. Please try again.',
      onSuccess: (rows) => downloadText(attendanceFileName(cohort.cohort_code, new Date()), attendanceCsv(rows)),
    },
  );
  return (
    <Button variant="secondary" className="w-full" disabled={disabled || exportCsv.pending} onClick={() => void exportCsv.run()}>
      <Download className="h-4 w-4" aria-hidden="true" />
      {exportCsv.pending ? 'Exporting...' : 'Export attendance (CSV)'}
    </Button>
  );
}
