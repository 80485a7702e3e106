import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { Attendance } from '../../../shared/entities';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { ADMIN, clearDb, COACH, renderPage } from '../render-page';
import { seedCohort } from './seed';
import { readExportNotices } from '../../../src/data/sync/export-notices';

vi.setConfig({ testTimeout: 30_000 });

const mark = (id: string, session_id: string, participant_id: string, status: Attendance['status'], note: string | null = null): Attendance => ({
  id,
  session_id,
  cohort_id: 'c1',
  participant_id,
  status,
  note,
  recorded_by: 'lee@example.org',
  recorded_at: '2099-01-07T09:05:00',
});

beforeEach(async () => {
  await clearDb();
  await seedCohort();
  await db.attendance.bulkPut([
    mark('a1', 'ss1', 'p1', 'present'),
    mark('a2', 'ss1', 'p4', 'absent', '=HYPERLINK("x")'),
    mark('a3', 'ss2', 'p1', 'late'),
    mark('a4', 'ss2', 'p4', 'absent'),
    mark('a5', 'ss3', 'p1', 'present'),
    mark('a6', 'ss3', 'p4', 'present'),
  ]);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const panel = async () => within((await screen.findByRole('heading', { name: 'Attendance' })).parentElement!.parentElement!);

describe('CohortDetail attendance (issue #23.4)', () => {
  it('shows the overall rate, the rate of each session taken, and who is below 70%', async () => {
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    const p = await panel();
    expect(await p.findByText('67%')).toBeInTheDocument(); // 4 of 6 records attended
    expect(p.getByText('Overall attendance')).toBeInTheDocument();
    const perSession = within(p.getByRole('list', { name: 'Attendance by session' })).getAllByRole('listitem');
    expect(perSession).toHaveLength(3);
    expect(perSession[0]).toHaveTextContent(/^Session 1\s*50% \(1 of 2\)$/);
    expect(perSession[1]).toHaveTextContent(/^Session 2\s*50% \(1 of 2\)$/);
    expect(perSession[2]).toHaveTextContent(/^Session 3\s*100% \(2 of 2\)$/);
    const below = within(p.getByRole('list', { name: 'Below 70% attendance' })).getAllByRole('listitem');
    expect(below).toHaveLength(1);
    expect(within(below[0]).getByRole('link', { name: 'Ann Smith' })).toHaveAttribute('href', '/participantdetail?id=p4');
    expect(below[0]).toHaveTextContent('1 of 3, 33%');
    // A coach does not export (reports to funders are administrators' work).
    expect(p.queryByRole('button', { name: 'Export attendance (CSV)' })).not.toBeInTheDocument();
  });

  it("says 'No attendance taken yet' before any, with the admin's export off", async () => {
    await db.attendance.clear();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    const p = await panel();
    expect(await p.findByText('No attendance taken yet')).toBeInTheDocument();
    expect(p.getByRole('button', { name: 'Export attendance (CSV)' })).toBeDisabled();
  });

  it('lets an admin download the CSV, formulas neutralised, named {cohort_code}-attendance-{date}.csv', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:attendance';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    const p = await panel();
    await p.findByText('67%');
    await user.click(p.getByRole('button', { name: 'Export attendance (CSV)' }));
    await waitFor(() => expect(names).toHaveLength(1));

    const now = new Date();
    const ymd = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    expect(names[0]).toBe(`FL-SQ-2025Q1-attendance-${ymd}.csv`);
    expect(blobs[0].type).toBe('text/csv;charset=utf-8');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]);
    });
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Session,Date,Topic,Participant,UID,Status,Note,Recorded by,Recorded at');
    expect(lines.slice(1, 3)).toEqual([
      `1,2099-01-07 09:00,Budgeting,Ann Smith,RA-004,Absent,"'=HYPERLINK(""x"")",lee@example.org,2099-01-07 09:05`,
      '1,2099-01-07 09:00,Budgeting,Maria Lopez,RA-001,Present,,lee@example.org,2099-01-07 09:05',
    ]);
    expect(lines).toHaveLength(8); // header, 6 records, the last line end
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:attendance');
    // Issue #26: the export is kept on the tablet for the audit, sent with the next sync.
    expect((await readExportNotices(db)).map((n) => n.notice)).toEqual([expect.objectContaining({ kind: 'attendance', row_count: 6, filters: { cohort_id: 'c1' } })]);
  });

  it('offers no export to a coach, even the lead', async () => {
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: { ...COACH, email: 'lee@example.org' } });
    const p = await panel();
    await p.findByText('67%');
    expect(p.queryByRole('button', { name: /Export/ })).not.toBeInTheDocument();
  });
});
