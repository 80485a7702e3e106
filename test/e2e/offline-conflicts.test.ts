import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, setupHarness, passDeviceLock } from './harness';
import {
  editParticipantField,
  eventually,
  loginToken,
  outbox,
  coachParticipants,
  serverRows,
  serverUpdate,
  serviceWorkerReady,
  syncStatusRow,
  tokenOf,
  type Row,
} from './offline-world';

/**
 * Issue #5.4 and 5.6 in Chromium against the real server: what the coach sees on the Sync page
 * when an administrator changed the same field meanwhile (a conflict, resolved either way), and
 * when the server refuses a change (shown with its message; the other changes still go).
 */
const h = setupHarness();

async function coachOnline(): Promise<{ page: Page; token: string; participants: Row[] }> {
  const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
  await h().signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null).not.toBeNull();
  const token = await tokenOf(page);
  return { page, token, participants: await coachParticipants(h().baseUrl, token) };
}

describe('the Sync page in the browser', () => {
  it('an admin and an offline coach change the same fields: conflicts shown with both values, resolved either way', async () => {
    const { page, token, participants } = await coachOnline();
    const p = participants[0];
    const admin = await loginToken(h().baseUrl, DEMO.admin, DEMO_PASSWORD);

    await page.context().setOffline(true);
    await editParticipantField(page, h().baseUrl, p.id, 'Phone', '(555) 000-1111');
    await editParticipantField(page, h().baseUrl, p.id, 'Case Manager', 'Coach Choice');
    // Meanwhile, online, an administrator changes the same two fields.
    await serverUpdate(h().baseUrl, admin, 'Participant', p.id, { phone: '(555) 999-2222', case_manager: 'Admin Choice' });

    await page.context().setOffline(false);
    await eventually(async () => (await outbox(page)).length).toBe(0);
    await page.goto(`${h().baseUrl}/sync`);
    await passDeviceLock(page);
    await page.getByRole('heading', { name: 'Conflicts (2)' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('sync-indicator').getByText('Needs attention').waitFor();

    const phone = page.getByRole('listitem', { name: /^Conflict: Participant/ }).filter({ hasText: '(555) 999-2222' });
    await expect.poll(() => phone.textContent()).toContain('(555) 000-1111');
    const caseManager = page.getByRole('listitem', { name: /^Conflict: Participant/ }).filter({ hasText: 'Admin Choice' });
    await expect.poll(() => caseManager.textContent()).toContain('Coach Choice');

    // The coach takes the server's phone and keeps their own case manager.
    await phone.getByRole('button', { name: "Use server's" }).click();
    await caseManager.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByRole('heading', { name: /^Conflicts/ }).waitFor({ state: 'detached', timeout: 15_000 });
    await eventually(async () => (await outbox(page)).length).toBe(0);
    const [after] = await serverRows(h().baseUrl, token, 'Participant', { id: p.id });
    expect(after).toMatchObject({ phone: '(555) 999-2222', case_manager: 'Coach Choice' });
    await page.getByTestId('sync-indicator').getByText('Up to date').waitFor({ timeout: 15_000 });
  });

  it('a change the server refuses is shown with its message, does not block the others, and can be edited and sent', async () => {
    const { page, token, participants } = await coachOnline();
    const [refused, fine] = [participants[1], participants[2]];

    await page.context().setOffline(true);
    // The server keeps text fields under 64 KB (server/http/validate-record.ts): this one is over.
    await editParticipantField(page, h().baseUrl, refused.id, 'Current Address', 'x'.repeat(70_000));
    await editParticipantField(page, h().baseUrl, fine.id, 'Phone', '(555) 321-0000');
    await page.context().setOffline(false);

    // The other change goes through.
    await eventually(async () => (await serverRows(h().baseUrl, token, 'Participant', { id: fine.id }))[0].phone).toBe('(555) 321-0000');
    await page.goto(`${h().baseUrl}/sync`);
    await passDeviceLock(page);
    const card = page.getByRole('listitem', { name: /^Rejected: Participant/ });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('The server said: address is too long (422)');
    // The record's name comes from the mirror a moment after the card.
    await eventually(async () => await card.textContent()).toContain(`${refused.first_name} ${refused.last_name}`);
    await page.getByTestId('sync-indicator').getByText('Needs attention').waitFor();

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('address', { exact: true }).fill('12 Harbor Way, Unit 4');
    await card.getByRole('button', { name: 'Save and retry' }).click();
    await eventually(async () => (await serverRows(h().baseUrl, token, 'Participant', { id: refused.id }))[0].address).toBe('12 Harbor Way, Unit 4');
    await page.getByRole('heading', { name: /^Needs attention/ }).waitFor({ state: 'detached', timeout: 15_000 });
    expect(await outbox(page)).toEqual([]);
  });
});
