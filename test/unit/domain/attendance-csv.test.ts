import { describe, expect, it } from 'vitest';
import { ATTENDANCE_CSV_COLUMNS, attendanceCsv, attendanceFileName, csvCell, type AttendanceCsvRow } from '../../../src/domain/attendance-csv';

const s1 = { session_number: 1, topic: 'Budgeting', scheduled_at: new Date(2025, 0, 7, 9, 0).toISOString() };
const s2 = { session_number: 2, topic: 'Credit, cards and "loans"', scheduled_at: new Date(2025, 0, 14, 9, 30).toISOString() };
const row = (session: AttendanceCsvRow['session'], participantName: string, status: AttendanceCsvRow['record']['status'], extra: Partial<AttendanceCsvRow['record']> = {}): AttendanceCsvRow => ({
  record: { status, recorded_by: 'lee@example.org', recorded_at: new Date(2025, 0, 7, 9, 5).toISOString(), ...extra },
  session,
  participantName,
  uid: `RA-${participantName.length}`,
});

describe('attendanceCsv (issue #23.4)', () => {
  it('writes the header and one line per record, in session order then by name, with CRLF line ends', () => {
    const text = attendanceCsv([row(s2, 'Maria Lopez', 'late'), row(s1, 'Maria Lopez', 'present'), row(s1, 'Ann Smith', 'absent', { note: 'In court' })]);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(ATTENDANCE_CSV_COLUMNS.join(','));
    expect(lines[0]).toBe('Session,Date,Topic,Participant,UID,Status,Note,Recorded by,Recorded at');
    expect(lines[1]).toBe('1,2025-01-07 09:00,Budgeting,Ann Smith,RA-9,Absent,In court,lee@example.org,2025-01-07 09:05');
    expect(lines[2]).toBe('1,2025-01-07 09:00,Budgeting,Maria Lopez,RA-11,Present,,lee@example.org,2025-01-07 09:05');
    // RFC 4180: a comma or quote puts the cell in quotes, quotes doubled.
    expect(lines[3]).toBe('2,2025-01-14 09:30,"Credit, cards and ""loans""",Maria Lopez,RA-11,Late,,lee@example.org,2025-01-07 09:05');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
  });

  it('keeps a line break inside a quoted cell and a record whose session is not on the tablet (last)', () => {
    const text = attendanceCsv([row(null, 'Zed', 'excused', { note: 'Line one\nline two', recorded_at: null }), row(s1, 'Amy', 'present')]);
    expect(text.endsWith('Zed,RA-3,Excused,"Line one\nline two",lee@example.org,\r\n')).toBe(true);
    expect(text.split('\r\n')[1].startsWith('1,')).toBe(true);
  });

  it('neutralises cells that a spreadsheet would run as a formula (= + - @, tab, CR)', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(null)).toBe('');
    const text = attendanceCsv([row(s1, '=cmd|calc', 'absent', { note: '@evil', recorded_by: '-x' })]);
    expect(text.split('\r\n')[1]).toBe("1,2025-01-07 09:00,Budgeting,'=cmd|calc,RA-9,Absent,'@evil,'-x,2025-01-07 09:05");
  });

  it('writes only the header when there is no attendance', () => {
    expect(attendanceCsv([])).toBe('Session,Date,Topic,Participant,UID,Status,Note,Recorded by,Recorded at\r\n');
  });
});

describe('attendanceFileName', () => {
  it('is {cohort_code}-attendance-{yyyy-MM-dd}.csv, safe for a file system', () => {
    const today = new Date(2025, 2, 4, 15, 0);
    expect(attendanceFileName('FL-SQ-2025Q1', today)).toBe('FL-SQ-2025Q1-attendance-2025-03-04.csv');
    expect(attendanceFileName('A/B: C', today)).toBe('A-B-C-attendance-2025-03-04.csv');
    expect(attendanceFileName('', today)).toBe('cohort-attendance-2025-03-04.csv');
    expect(attendanceFileName('../x', today)).toBe('x-attendance-2025-03-04.csv');
  });
});
