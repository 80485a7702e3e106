import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, setupHarness, passDeviceLock } from './harness';
import { addParticipant, eventually, outbox, serverRows, serviceWorkerReady, syncStatusRow, tokenOf } from './offline-world';

/**
 * Issue #5.5 (S11) on a shared tablet, in Chromium against the real server: logout with changes
 * not yet on the server warns with their count; a different user signing in next is stopped until
 * those changes are dealt with; logout with nothing pending wipes the local copy.
 */
const h = setupHarness();

/** Rows in one table of the app's IndexedDB (0 when the database is gone). */
async function countRows(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (store) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('passage');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(store)) {
            // Close at once: an open connection would block the app's next Dexie upgrade.
            db.close();
            return resolve(0);
          }
          const req = db.transaction(store).objectStore(store).count();
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
        };
      }),
    store,
  );
}

async function signedInCoach(): Promise<Page> {
  const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
  await h().signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null).not.toBeNull();
  return page;
}

async function signInAndWait(page: Page, email: string): Promise<void> {
  await page.goto(`${h().baseUrl}/login?from_url=${encodeURIComponent(`${h().baseUrl}/`)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login') && !url.search.includes('access_token'), { timeout: 30_000 });
}

describe('identity on a shared tablet (S11)', () => {
  it('logout with a pending change warns with the count; the next user is stopped until an admin discards it', async () => {
    const page = await signedInCoach();
    const token = await tokenOf(page);
    // The change cannot reach the server for now (as on a dead network), while /login still can.
    await page.context().route('**/api/apps/passage/entities/Participant**', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    const tag = `Shared-${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Noor', tag);
    expect(await outbox(page)).toHaveLength(1);

    await page.getByRole('button', { name: 'Log out' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You have 1 change that has not reached the server.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await outbox(page)).toHaveLength(1);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out anyway' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'), { timeout: 30_000 });
    // The change is still on the device: nothing is dropped silently.
    expect(await countRows(page, 'outbox')).toBe(1);

    // An administrator signs in on the same tablet: stopped, with the reason and the choice.
    await signInAndWait(page, DEMO.admin);
    await page.getByRole('heading', { name: "Another user's changes are waiting" }).waitFor({ timeout: 30_000 });
    await page.getByText(/Jordan Ellis made 1 change that has not reached the server yet/).waitFor();
    await page.getByRole('button', { name: 'Discard their changes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
    // The coach's copy (sealed with the coach's key) is gone; the administrator gets a vault of their own.
    await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).waitFor({ timeout: 30_000 });
    expect(await passDeviceLock(page)).toBe('set-pin');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    expect(await countRows(page, 'outbox')).toBe(0);
    expect(await serverRows(h().baseUrl, token, 'Participant', { last_name: tag })).toEqual([]);
  });

  it('logout with nothing pending asks nothing and wipes the local copy', async () => {
    const page = await signedInCoach();
    expect(await countRows(page, 'participants')).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'), { timeout: 30_000 });
    expect(await countRows(page, 'participants')).toBe(0);
    expect(await countRows(page, 'outbox')).toBe(0);
  });
});
