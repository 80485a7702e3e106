/**
 * Issue #23.4: a cohort's attendance as CSV, for administrators' reports to funders. Pure: the
 * screen reads the rows (data/queries/attendance.ts `attendanceForExport`) and downloads the text.
 * - RFC 4180: CRLF line ends; a cell with a comma, quote, CR or LF is quoted, quotes doubled.
 * - Spreadsheet formula injection (OWASP "CSV injection"): a note or name typed on a tablet that
 *   starts with = + - @ (or a tab or CR, which some spreadsheets skip before reading a formula)
 *   would run as a formula when a funder opens the file; such a cell gets a leading apostrophe.
 */
import type { AttendanceStatus } from '../../shared/entities';
import { ATTENDANCE_LABEL } from './attendance';
import { todayISO } from './format';

export const ATTENDANCE_CSV_COLUMNS = ['Session', 'Date', 'Topic', 'Participant', 'UID', 'Status', 'Note', 'Recorded by', 'Recorded at'] as const;

/** One record with its session and participant (the shape of `AttendanceExportRow`). */
export interface AttendanceCsvRow {
  record: { status: AttendanceStatus; note?: string | null; recorded_by?: string | null; recorded_at?: string | null };
  session: { session_number?: number | null; topic?: string | null; scheduled_at?: string | null } | null;
  participantName: string;
  uid: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'yyyy-MM-dd HH:mm' in local time: sorts as text and reads in any spreadsheet; '' when unset. */
export function csvDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${todayISO(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** One cell: neutralised when it could start a formula, then quoted when RFC 4180 needs it. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const when = (s: AttendanceCsvRow['session']) => (s?.scheduled_at ? Date.parse(s.scheduled_at) : Number.POSITIVE_INFINITY);
const num = (s: AttendanceCsvRow['session']) => s?.session_number ?? Number.MAX_SAFE_INTEGER;

/** The whole file: a header line, then one line per record in session order (as `sortSessions`), then by participant. */
export function attendanceCsv(rows: readonly AttendanceCsvRow[]): string {
  const sorted = [...rows].sort(
    (a, b) => when(a.session) - when(b.session) || num(a.session) - num(b.session) || a.participantName.localeCompare(b.participantName),
  );
  const lines = [ATTENDANCE_CSV_COLUMNS.map(csvCell).join(',')];
  for (const { record, session, participantName, uid } of sorted) {
    lines.push(
      [
        session?.session_number ?? '',
        csvDateTime(session?.scheduled_at),
        session?.topic ?? '',
        participantName,
        uid ?? '',
        ATTENDANCE_LABEL[record.status] ?? record.status,
        record.note ?? '',
        record.recorded_by ?? '',
        csvDateTime(record.recorded_at),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** `{cohort_code}-attendance-{yyyy-MM-dd}.csv`; characters a file system may refuse become '-'. */
export function attendanceFileName(cohortCode: string | null | undefined, today: Date): string {
  const code = (cohortCode ?? '').trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'cohort';
  return `${code}-attendance-${todayISO(today)}.csv`;
}
