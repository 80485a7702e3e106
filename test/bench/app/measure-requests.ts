/**
 * Requests made while opening Participants, a ParticipantDetail (from its card) and a CohortDetail
 * (from the Cohorts list) after sync, by in-app navigation. Classified, because the usage log
 * (spec 7.2: one POST per page view) is a required call, not a data read.
 */
import type { Page } from 'playwright-core';
import { recordRequests, settle } from './browser';
import { goToDashboard } from './measure-participants';

export interface RequestTally {
  dataReads: number;
  usageLogs: number;
  otherApi: number;
  assetsFromNetwork: number;
  urls: string[];
}

export function classify(urls: readonly { url: string; method: string; fromServiceWorker: boolean }[]): RequestTally {
  const t: RequestTally = { dataReads: 0, usageLogs: 0, otherApi: 0, assetsFromNetwork: 0, urls: [] };
  for (const r of urls) {
    const path = new URL(r.url).pathname;
    if (path.startsWith('/api/')) {
      t.urls.push(`${r.method} ${path}`);
      if (path.includes('/app-logs/')) t.usageLogs += 1;
      else if (path.includes('/entities/')) t.dataReads += 1;
      else t.otherApi += 1;
    } else if (!r.fromServiceWorker && !r.url.startsWith('data:')) {
      t.assetsFromNetwork += 1;
      t.urls.push(`${r.method} ${path}`);
    }
  }
  return t;
}

const link = (page: Page, css: string) => page.locator(css).first();

export async function countOpeningRequests(page: Page, expectedParticipants: number): Promise<RequestTally> {
  await goToDashboard(page, expectedParticipants);
  await settle(page, 800);
  const rec = recordRequests(page);
  rec.start();
  await page.locator('nav').getByRole('link', { name: 'Participants', exact: true }).first().click();
  await link(page, 'a[href*="participantdetail" i] h3').waitFor({ timeout: 60_000 });
  await link(page, 'a[href*="participantdetail" i]').click();
  await page.waitForURL(/participantdetail/i);
  await page.getByText('Quick Stats').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  await settle(page, 800);
  await page.locator('nav').getByRole('link', { name: 'Cohorts', exact: true }).first().click();
  await link(page, 'a[href*="cohortdetail" i]').waitFor({ timeout: 60_000 });
  await link(page, 'a[href*="cohortdetail" i]').click();
  await page.waitForURL(/cohortdetail/i);
  await settle(page, 1500);
  const seen = rec.stop();
  const rows = [];
  for (const r of seen) rows.push({ url: r.url(), method: r.method(), fromServiceWorker: (await r.response())?.fromServiceWorker() ?? false });
  return classify(rows);
}
