import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignInSheetPage } from '../../../src/screens/sign-in-sheet/sign-in-sheet-page';
import { clearDb, renderPage } from '../render-page';
import { seedSession } from '../take-attendance/seed';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(clearDb);
afterEach(cleanup);

describe('SignInSheet (issue #23.6)', () => {
  it('prints the expected participants with a signature column, under the session, date, site and coach', async () => {
    await seedSession();
    await renderPage(<SignInSheetPage id="ss3" />, { at: 'SignInSheet', id: 'ss3' });
    expect(await screen.findByRole('heading', { name: 'Sign-in sheet' })).toBeInTheDocument();
    expect(screen.getByText('FL-SQ-2025Q1 · Session 3 — Banking')).toBeInTheDocument();
    expect(screen.getByText('Jan 21, 2099, 9:30 AM')).toBeInTheDocument();
    expect(await screen.findByText('San Quentin')).toBeInTheDocument();
    expect(await screen.findByText('Casey Coach')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['No.', 'Name', 'UID', 'Signature', 'Time in']);
    const rows = within(table).getAllByRole('row').slice(1);
    // The two active participants (not the withdrawn one kept on the roster for her record, nor the
    // one enrolled after this session), then 3 numbered blank lines.
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent))).toEqual([
      ['1', 'Maria Lopez', 'RA-001'],
      ['2', 'Ann Smith', 'RA-004'],
      ['3', '', ''],
      ['4', '', ''],
      ['5', '', ''],
    ]);
    expect(screen.getByRole('link', { name: 'FL-SQ-2025Q1' })).toHaveAttribute('href', '/cohortdetail?id=c1');
  });

  it('Print opens the browser’s print dialog', async () => {
    await seedSession();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await renderPage(<SignInSheetPage id="ss3" />, { at: 'SignInSheet', id: 'ss3' });
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    print.mockRestore();
  });
});
