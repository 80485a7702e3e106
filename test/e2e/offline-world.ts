/**
 * Helpers of the offline browser tests (offline*.test.ts, pwa*.test.ts): ground truth from the
 * server (read with Node's fetch, so it works while the browser is offline), the outbox as the
 * page's IndexedDB holds it, and waiting for the service worker.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export type Row = Record<string, unknown> & { id: string };

export async function tokenOf(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('academy_access_token'))) ?? '';
}

/** What the server holds (not the mirror): the platform API called from Node with this token. */
export async function serverRows(baseUrl: string, token: string, entity: string, q: Record<string, unknown> = {}, limit = 500): Promise<Row[]> {
  const res = await fetch(`${baseUrl}/api/apps/passage/entities/${entity}?q=${encodeURIComponent(JSON.stringify(q))}&limit=${limit}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage' },
  });
  if (res.status !== 200) throw new Error(`GET ${entity} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Row[];
}

export async function serverUpdate(baseUrl: string, token: string, entity: string, id: string, data: Record<string, unknown>): Promise<Row> {
  const res = await fetch(`${baseUrl}/api/apps/passage/entities/${entity}/${id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage', 'Content-Type': 'application/json' },
    body: JSON.stringify(data),
  });
  if (res.status !== 200) throw new Error(`PUT ${entity}/${id} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Row;
}

/** Ops in the page's outbox (the Dexie table), read with plain IndexedDB. */
export async function outbox(page: Page): Promise<Array<{ entity: string; kind: string; state: string; record_id: string; data: Record<string, unknown> }>> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('passage');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('outbox').objectStore('outbox').getAll();
          get.onsuccess = () => {
            db.close();
            resolve(get.result);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/** Waits until the service worker controls the page (it claims it on first install). */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
}

export function eventually<T>(read: () => Promise<T>, timeout = 20_000) {
  return expect.poll(read, { timeout, interval: 250 });
}

export async function toast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
}

export function fullName(p: Row): string {
  return `${String(p.first_name)} ${String(p.last_name)}`;
}
