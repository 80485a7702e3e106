import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, passDeviceLock, setupHarness, tokenOf } from './harness';
import { coachScope, eventually, fullName, serverRows, serviceWorkerReady, type Row } from './offline-world';

/**
 * Issue #22 in Chromium against the real server: the demo coach's tablet holds the sites of their
 * cohorts (2 of the demo's 4), counted in the page's own IndexedDB; a participant of another site
 * is found online, marked as not on this tablet, opened, and still there once the tablet is offline.
 */
const h = setupHarness();

/** The primary keys of one object store of the app's database, read with plain IndexedDB. */
async function storeKeys(page: Page, store: string): Promise<string[]> {
  return page.evaluate(
    (name) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('passage');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) return resolve([]);
          const req = db.transaction(name).objectStore(name).getAllKeys();
          req.onsuccess = () => {
            resolve((req.result as IDBValidKey[]).map(String));
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

describe("issue #22: a coach's tablet holds the coach's sites", () => {
  it('holds only the participants of their sites, finds one of another site online, opens it, and still shows it offline', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    await h().signIn(page, DEMO.coach);
    await serviceWorkerReady(page);
    const base = h().baseUrl;
    const token = tokenOf(page);
    const scope = await coachScope(base, token);
    const everyone = await serverRows(base, token, 'Participant', {}, 5000);
    const sites = await serverRows(base, token, 'Site');
    expect(scope.siteIds.size).toBeGreaterThan(0);
    expect(scope.siteIds.size).toBeLessThan(sites.length);

    // The store holds exactly the scope's participants: no more, no fewer.
    const inScope = scope.participants.map((p) => p.id).sort();
    await eventually(async () => (await storeKeys(page, 'participants')).sort(), 30_000).toEqual(inScope);
    expect(inScope.length).toBeLessThan(everyone.length);
    // Programs and sites are whole on every tablet.
    expect((await storeKeys(page, 'sites')).length).toBe(sites.length);

    // The counts say what they cover.
    await h().open(page, '/');
    await page.getByText(`at your ${scope.siteIds.size} sites`).first().waitFor({ timeout: 20_000 });
    await page.getByText(`${everyone.length} in the academy`).waitFor({ timeout: 20_000 });

    // A participant of another site: not on the tablet, found by the server's search.
    const held = new Set(inScope);
    const names = new Set(scope.participants.map(fullName));
    const beyond = everyone.find((p) => !held.has(p.id) && !names.has(fullName(p))) as Row;
    expect(beyond).toBeTruthy();
    await page.getByRole('navigation').getByRole('link', { name: 'Participants' }).first().click();
    const urls: string[] = [];
    page.on('request', (req) => urls.push(decodeURIComponent(req.url()).replace(/\+/g, ' ')));
    await page.getByLabel('Search participants').fill(fullName(beyond));
    const elsewhere = page.getByRole('list', { name: 'Participants not on this tablet' });
    await elsewhere.getByRole('link', { name: new RegExp(fullName(beyond)) }).first().waitFor({ timeout: 20_000 });
    expect(await page.getByRole('heading', { name: 'Not on this tablet' }).count()).toBe(1);
    // The typed name went to the server in a POST body (participantSearch), in no request URL.
    expect(urls.filter((u) => u.toLowerCase().includes(String(beyond.last_name).toLowerCase()))).toEqual([]);
    await elsewhere.getByRole('link', { name: new RegExp(fullName(beyond)) }).first().click();
    await page.waitForURL((url) => url.pathname === '/participantdetail' && url.search.includes(beyond.id));
    await page.getByRole('heading', { name: fullName(beyond), level: 1 }).waitFor({ timeout: 20_000 });
    await eventually(async () => (await storeKeys(page, 'participants')).includes(beyond.id)).toBe(true);

    // Offline, and after a reload (the service worker serves the app, the PIN opens the copy).
    await page.context().setOffline(true);
    await page.reload();
    await passDeviceLock(page);
    await page.getByRole('heading', { name: fullName(beyond), level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Not on this tablet').count()).toBe(0);

    // Another participant of another site, opened offline by its address: said so plainly.
    const other = everyone.find((p) => !held.has(p.id) && p.id !== beyond.id) as Row;
    await page.goto(`${base}/participantdetail?id=${other.id}`);
    await passDeviceLock(page);
    await page.getByText('This participant is not on this tablet.', { exact: false }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Participant not found').count()).toBe(0);
    await page.context().setOffline(false);
  });
});
