import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { applyCreated, inAllTables } from '../../../src/data/sync/mirror-writes';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { ADMIN, clearDb, renderPage } from '../render-page';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

/** What the sync engine does when the server answers the create (S2): new id, alias, op gone. */
async function serverAssignsId(entity: 'Program' | 'Site', serverId: string) {
  const [op] = await db.outbox.where('entity').equals(entity).toArray();
  const local = await db.table(entity === 'Program' ? 'programs' : 'sites').get(op.record_id);
  await inAllTables(db, () => applyCreated(db, op, { ...local, id: serverId, updated_date: '2026-11-23T10:00:00.000Z' }));
  return op.record_id as string;
}

describe('ProgramsSitesPage: an open Edit form survives the server assigning the id (issue #9.9, S2)', () => {
  it('keeps the typed program name and saves it to the server id', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Program' }));
    await user.type(screen.getByLabelText('Program Name *'), 'Credit Repair');
    await user.click(screen.getByRole('button', { name: 'Create Program' }));
    const card = await screen.findByRole('article', { name: 'Credit Repair' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByLabelText('Program Name *'), ' Basics');

    const tempId = await serverAssignsId('Program', 'srv-program-1');
    expect(tempId).toMatch(/^local-/);
    // The card now links to the server id, and the form is still open with the typed text.
    await waitFor(async () => expect(await db.programs.get('srv-program-1')).toBeDefined());
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Credit Repair Basics');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    expect(await db.programs.get('srv-program-1')).toMatchObject({ program_name: 'Credit Repair Basics' });
    expect(await db.outbox.toArray()).toMatchObject([{ entity: 'Program', kind: 'update', record_id: 'srv-program-1' }]);
    expect(await within(screen.getByRole('region', { name: /^Programs/ })).findByRole('link', { name: /Credit Repair Basics/ })).toHaveAttribute(
      'href',
      '/programdetail?id=srv-program-1',
    );
  });

  it('keeps the typed site name', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Site' }));
    await user.type(screen.getByLabelText('Site Name *'), 'Oak Glen');
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    const card = await screen.findByRole('article', { name: 'Oak Glen' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByLabelText('City'), 'Yucaipa');

    await serverAssignsId('Site', 'srv-site-1');
    await waitFor(async () => expect(await db.sites.get('srv-site-1')).toBeDefined());
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByLabelText('City')).toHaveValue('Yucaipa');
    expect(screen.getByLabelText('Site Name *')).toHaveValue('Oak Glen');
  });
});
