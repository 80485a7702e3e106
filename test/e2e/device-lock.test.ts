import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARGON2_PARAMS } from '../../src/data/vault/keys';
import { DEMO, DEMO_PASSWORD, TEST_PIN, passDeviceLock, setupHarness } from './harness';
import { addParticipant, coachParticipants, fullName, loginToken, serverRows, serviceWorkerReady, tokenOf, type Row } from './offline-world';

/**
 * Issue #14 in Chromium against the real server: what IndexedDB holds on a tablet, the PIN at an
 * start (offline or not), wrong PINs, the recovery by a password sign-in, and what 10 wrong PINs do (#21.7).
 * IndexedDB is read directly from the page (indexedDB.open), never through the app.
 */
const h = setupHarness();

/** Every row of every store of the app's database, as text; sealed bytes are left out. */
async function rawDatabase(page: Page): Promise<{ text: string; counts: Record<string, number> }> {
  return page.evaluate(async () => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const req = indexedDB.open('passage');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all: Record<string, unknown[]> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      all[name] = await new Promise((resolve) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
      });
    }
    db.close();
    const counts = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.length]));
    return { text: JSON.stringify(all, (_k, v: unknown) => (v instanceof Uint8Array ? '[sealed]' : v)), counts };
  });
}

/** Writes the vault record's wrong-PIN count straight into IndexedDB (as 9 wrong tries would). */
async function setFailedAttempts(page: Page, failed: number): Promise<void> {
  await page.evaluate(async (failed) => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const req = indexedDB.open('passage');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('meta', 'readwrite');
      const store = tx.objectStore('meta');
      const get = store.get('vault');
      get.onsuccess = () => store.put({ ...get.result, value: { ...get.result.value, failed_attempts: failed, retry_at: null } });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, failed);
}

async function lockScreen(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Passage is locked' }).waitFor({ timeout: 30_000 });
}

async function enterPin(page: Page, pin: string): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

/** Searches the Participants list for `participant` (the search text lives in memory, issue #21.6). */
async function findOnList(page: Page, participant: Row): Promise<void> {
  if (new URL(page.url()).pathname !== '/participants') await page.getByRole('link', { name: 'Participants' }).first().click();
  await page.getByLabel('Search participants').fill(String(participant.last_name));
  await page.getByText(fullName(participant)).first().waitFor({ timeout: 30_000 });
}

/** Signs in, sets the PIN and waits until a known participant is on the tablet. */
async function signedInWith(page: Page, participant: Row): Promise<void> {
  await h().signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await h().open(page, '/participants');
  await findOnList(page, participant);
}

/** One of the coach's participants with a prison number and a phone, read over the JSON API. */
async function aParticipant(): Promise<Row> {
  const token = await loginToken(h().baseUrl, DEMO.coach, DEMO_PASSWORD);
  const rows = await coachParticipants(h().baseUrl, token);
  const p = rows.find((r) => r.cdcr_number && r.phone && r.first_name && r.last_name);
  if (!p) throw new Error('the demo seed has no participant with a prison number and a phone');
  return p;
}

describe('personal data on the tablet (issue #14)', () => {
  it('IndexedDB itself holds none of a participant’s names, prison number or phone, nor a change waiting offline', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 }, pin: 'production' });
    const p = await aParticipant();
    await signedInWith(page, p);

    await page.context().setOffline(true);
    const last = `Sealedquist${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Wilhelmina', last);

    const raw = await rawDatabase(page);
    expect(raw.counts.participants).toBeGreaterThan(10);
    expect(raw.counts.outbox).toBe(1);
    expect(raw.text).toContain(p.id); // the rows are there, by id
    for (const secret of [p.first_name, p.last_name, p.cdcr_number, p.phone, 'Wilhelmina', last]) expect(raw.text, String(secret)).not.toContain(String(secret));
    // The PIN's wrapping is the one a tablet gets: Argon2id over 64 MiB with the shipped passes
    // (this page does not ask the e2e build for fewer, harness.ts lightPin).
    const meta = (JSON.parse(raw.text) as { meta: { key: string; value: { pin: Record<string, unknown> } }[] }).meta;
    expect(meta.find((m) => m.key === 'vault')?.value.pin).toMatchObject({ ...ARGON2_PARAMS });
    await page.context().setOffline(false);
  });

  it('an offline start asks for the PIN; a wrong one is refused with the tries left; the right one opens the data', async () => {
    const page = await h().newPage({ viewport: { width: 768, height: 1024 } });
    const p = await aParticipant();
    await signedInWith(page, p);

    await page.context().setOffline(true);
    await page.reload();
    await lockScreen(page);
    expect(await page.getByText(fullName(p)).count()).toBe(0);
    await enterPin(page, '99999999');
    await page.getByText('Wrong PIN. 9 tries left.').waitFor();
    await enterPin(page, TEST_PIN);
    await page.getByRole('heading', { name: 'Participants' }).waitFor({ timeout: 30_000 });
    await findOnList(page, p);

    // Online, every start asks for the PIN too (issue #21.3).
    await page.context().setOffline(false);
    await page.reload();
    await lockScreen(page);
    expect(await page.getByText(fullName(p)).count()).toBe(0);
    await enterPin(page, TEST_PIN);
    await page.getByRole('heading', { name: 'Participants' }).waitFor({ timeout: 30_000 });
    await findOnList(page, p);
  });

  it('Lock, then Forgot your PIN?: an online sign-in opens the same data and a new PIN replaces the old one', async () => {
    const page = await h().newPage({ viewport: { width: 1440, height: 900 } });
    const p = await aParticipant();
    await signedInWith(page, p);

    // A second tab of the same tablet, open behind: Lock in the first locks it too.
    const behind = await page.context().newPage();
    await behind.goto(`${h().baseUrl}/participants`);
    expect(await passDeviceLock(behind)).toBe('unlock');
    await findOnList(behind, p);
    await page.getByRole('button', { name: 'Lock' }).click();
    await lockScreen(page);
    await lockScreen(behind);
    expect(await behind.getByText(fullName(p)).count()).toBe(0);
    await behind.close();
    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'));
    await page.getByLabel('Email').fill(DEMO.coach);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).waitFor({ timeout: 30_000 });
    expect(await passDeviceLock(page, '13579024')).toBe('set-pin');

    // The data was opened, not downloaded again: it is there offline right away.
    await page.context().setOffline(true);
    await page.goto(`${h().baseUrl}/participants`);
    await lockScreen(page);
    await enterPin(page, TEST_PIN);
    await page.getByText('Wrong PIN. 9 tries left.').waitFor();
    await enterPin(page, '13579024');
    await page.getByRole('heading', { name: 'Participants' }).waitFor({ timeout: 30_000 });
    await findOnList(page, p);
    await page.context().setOffline(false);
  });

  it('the tenth wrong PIN ends the guessing, not the work: the offline intake waits, named, and a password sign-in sends it (issue #21.7)', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    const p = await aParticipant();
    await signedInWith(page, p);
    await page.context().setOffline(true);
    const last = `Change${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Unsent', last);

    await page.reload();
    await lockScreen(page);
    for (let i = 1; i <= 2; i++) {
      await enterPin(page, '00000000');
      await page.getByText(`Wrong PIN. ${10 - i} tries left.`).waitFor();
    }
    expect(await page.getByText('One more wrong PIN').count()).toBe(0);
    // Tries 3–9 (the waits between tries after the fifth are tested in the unit tests).
    await setFailedAttempts(page, 9);
    await page.reload();
    await lockScreen(page);
    await page.getByRole('alert').filter({ hasText: 'One more wrong PIN and the PIN stops opening this tablet' }).waitFor();
    await page.getByText(/1 change to a participant cannot be sent to the server/).waitFor();
    await enterPin(page, '00000000');
    await page.getByRole('heading', { name: 'The PIN no longer opens this tablet' }).waitFor();
    // The copy and the waiting change stay, sealed.
    const raw = await rawDatabase(page);
    expect(raw.counts.participants).toBeGreaterThan(10);
    expect(raw.counts.outbox).toBe(1);
    expect(raw.text).not.toContain(last);
    // Even the right PIN opens nothing now.
    await page.reload();
    await page.getByRole('heading', { name: 'The PIN no longer opens this tablet' }).waitFor();

    // Online, a password sign-in of the same account opens it, a new PIN is chosen, the intake is sent.
    await page.context().setOffline(false);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'));
    await page.getByLabel('Email').fill(DEMO.coach);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).waitFor({ timeout: 30_000 });
    expect(await passDeviceLock(page, '97531864')).toBe('set-pin');
    const token = await tokenOf(page);
    await expect.poll(async () => (await serverRows(h().baseUrl, token, 'Participant', { last_name: last })).length, { timeout: 30_000, interval: 500 }).toBe(1);
  });
});
