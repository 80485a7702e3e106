import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { AddParticipantPage } from '../../../src/screens/add-participant/add-participant-page';
import { clearDb, pageData, renderPage } from '../render-page';
import { seedScope } from '../seed-tablet-scope';
import { fakeEntityClient } from '../../support/fake-entity-client';

/** Issue #23.7: intake without duplicates — possible matches inline while the coach types. */
beforeEach(async () => {
  await clearDb();
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Jon', last_name: 'Smyth', date_of_birth: '1990-04-12', cdcr_number: 'AB-1234', academy_uid: 'U-1' },
    { id: 'p2', first_name: 'Rosa', last_name: 'Diaz', date_of_birth: '1985-01-01' },
  ]);
  await db.sites.put({ id: 's1', site_name: 'Folsom' });
  await db.cohorts.put({ id: 'c1', program_id: 'pr', site_id: 's1', cohort_code: 'FOL-1' });
  await db.enrollments.put({ id: 'e1', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' });
});
afterEach(cleanup);

const personal = () => within(screen.getByRole('group', { name: 'Personal Information' }));
const custody = () => within(screen.getByRole('group', { name: 'Custody Information' }));
const panel = () => screen.queryByRole('region', { name: 'Possible duplicates' });

async function typeName(first: string, last: string, dob: string) {
  await userEvent.type(personal().getByLabelText('First Name *'), first);
  await userEvent.type(personal().getByLabelText('Last Name *'), last);
  fireEvent.change(personal().getByLabelText('Date of Birth'), { target: { value: dob } });
}

describe('AddParticipant: possible duplicates (issue #23.7)', { timeout: 30_000 }, () => {
  it('lists the same date of birth with a similar name, with UID, DOB, CDCR, cohort and Open', async () => {
    const { router } = await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await typeName('John', 'Smith', '1990-04-12');
    const found = await screen.findByRole('region', { name: 'Possible duplicates' });
    const item = within(found).getByRole('listitem', { name: 'Jon Smyth' });
    expect(item).toHaveTextContent('Same date of birth, similar name');
    expect(item).toHaveTextContent('UID:U-1');
    expect(item).toHaveTextContent('CDCR:AB-1234');
    await waitFor(() => expect(item).toHaveTextContent('Cohort:FOL-1 at Folsom'));
    expect(within(item).queryByText('Not on this tablet')).toBeNull();
    // Open asks first: leaving drops what was typed. Staying keeps the form as it was.
    await userEvent.click(within(item).getByRole('button', { name: 'Open Jon Smyth' }));
    const ask = await screen.findByRole('dialog', { name: 'Open Jon Smyth?' });
    expect(ask).toHaveTextContent('what you typed here is not saved');
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay on the form' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(personal().getByLabelText('First Name *')).toHaveValue('John');
    expect(router.state.location.pathname).toBe('/addparticipant');
    // Another date: no match.
    fireEvent.change(personal().getByLabelText('Date of Birth'), { target: { value: '1990-04-13' } });
    await waitFor(() => expect(panel()).toBeNull());
  });

  it('"Open record" after the question goes to the existing participant', async () => {
    const { router } = await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await typeName('John', 'Smith', '1990-04-12');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Jon Smyth' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Open record' }));
    await waitFor(() => expect(router.state.location.href).toBe('/participantdetail?id=p1'));
  });

  it('the same CDCR number matches whatever the names; dismissed, it goes and is recorded on the participant', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await typeName('Zed', 'Young', '2000-01-01');
    await userEvent.type(custody().getByLabelText('CDCR Number'), 'ab 1234');
    const item = within(await screen.findByRole('region', { name: 'Possible duplicates' })).getByRole('listitem', { name: 'Jon Smyth' });
    expect(item).toHaveTextContent('Same CDCR number');
    await userEvent.click(within(item).getByRole('button', { name: 'Jon Smyth: this is a different person' }));
    await waitFor(() => expect(panel()).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    expect(await screen.findByText('Participant added successfully!')).toBeInTheDocument();
    const created = (await db.participants.toArray()).find((p) => p.first_name === 'Zed')!;
    expect(created.different_person_from).toEqual(['p1']);
    expect((await db.outbox.toArray())[0].data).toMatchObject({ cdcr_number: 'ab 1234', different_person_from: ['p1'] });
  });

  it('adding anyway with a match listed is allowed and records it', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await typeName('Rosa', 'Díaz', '1985-01-01');
    await screen.findByRole('listitem', { name: 'Rosa Diaz' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    expect(await screen.findByText('Participant added successfully!')).toBeInTheDocument();
    const created = (await db.participants.toArray()).find((p) => p.last_name === 'Díaz')!;
    expect(created.different_person_from).toEqual(['p2']);
  });

  it('online, on a tablet holding some sites: the server finds one at another site, marked Not on this tablet', async () => {
    await seedScope();
    const client = fakeEntityClient();
    const asked: unknown[] = [];
    client.functions = {
      invoke: async (name: string, params: Record<string, unknown>) => {
        asked.push([name, params]);
        return {
          data: {
            matches: [
              // On the tablet: listed once, as the tablet's own.
              { participant: { id: 'p1', first_name: 'Jon', last_name: 'Smyth', date_of_birth: '1990-04-12' }, places: [] },
              { participant: { id: 'far', first_name: 'Johnny', last_name: 'Smith', date_of_birth: '1990-04-12', academy_uid: 'U-9' }, places: [{ cohort_code: 'SQ-2', site_name: 'San Quentin' }] },
              { participant: { id: 'other', first_name: 'Tyrone', last_name: 'Jackson', date_of_birth: '1990-04-12' }, places: [] },
            ],
          },
        };
      },
    };
    pageData().client = client;
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await typeName('John', 'Smith', '1990-04-12');
    const far = await screen.findByRole('listitem', { name: 'Johnny Smith' }, { timeout: 5_000 });
    expect(far).toHaveTextContent('Not on this tablet');
    expect(far).toHaveTextContent('Cohort:SQ-2 at San Quentin');
    const items = within(screen.getByRole('list', { name: 'Possible duplicates' })).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Jon Smyth', 'Johnny Smith']);
    // The names never left the tablet: the server was asked about the date (and CDCR number) only.
    expect(asked).toEqual([['participantDuplicates', { cdcr_number: null, date_of_birth: '1990-04-12' }]]);
  });
});
