/**
 * The online-only baseline (spec 7.3, how the original client loads the Participants page): the
 * participant list sorted '-enrollment_date' (no limit: the platform's default page of 5,000),
 * then one Enrollment filter per participant card, then the cohorts list — all issued at once as
 * the cards mount, the browser queueing them on its 6 connections per host. Run in a fresh
 * Chromium context (no service worker) on a JSON URL of the origin, with plain DOM cards standing
 * in for the React ones (a lower bound on the original's render cost).
 */
import type { Browser } from 'playwright-core';
import { NAME_SHIM } from './browser';

export interface BaselineResult {
  label: string;
  /** Participant list fetched and its cards (names) on screen. */
  firstRenderMs: number;
  /** The first screen of 12 cards complete, with their active cohort codes (needs the cohorts list); null: not within capMs. */
  firstScreenMs: number | null;
  /** Every card complete; null: not within capMs. */
  allDoneMs: number | null;
  /** Requests issued (all of them are, at once) and answered by the end of the run. */
  requests: number;
  answered: number;
  participants: number;
  bytes: number;
}

/** capMs: stop waiting after this long (through the facility link a full run takes many minutes). */
export async function runBaseline(browser: Browser, origin: string, appId: string, token: string, label: string, capMs = 0): Promise<BaselineResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(NAME_SHIM);
    const page = await context.newPage();
    await page.goto(`${origin}/api/apps/public/prod/public-settings/by-id/${appId}`);
    const r = await page.evaluate(
      async ({ appId, token, capMs }) => {
        const headers = { 'X-App-Id': appId, Authorization: `Bearer ${token}`, 'X-Origin-URL': `${location.origin}/Participants` };
        let requests = 0;
        let answered = 0;
        let bytes = 0;
        // Chromium fails fetches beyond a few hundred outstanding per page (ERR_INSUFFICIENT_RESOURCES),
        // so at most 64 are handed to it at once, in issue order; it still runs them 6 at a time.
        let outstanding = 0;
        const waiting: (() => void)[] = [];
        const slot = async () => {
          if (outstanding >= 64) await new Promise<void>((r) => waiting.push(r));
          outstanding += 1;
        };
        const release = () => {
          outstanding -= 1;
          waiting.shift()?.();
        };
        const get = async (path: string) => {
          requests += 1;
          await slot();
          const res = await fetch(`/api/apps/${appId}/entities/${path}`, { headers }).finally(release);
          const text = await res.text();
          answered += 1;
          bytes += text.length;
          if (!res.ok) throw new Error(`${res.status} ${path}: ${text.slice(0, 200)}`);
          return JSON.parse(text);
        };
        const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
        type P = { id: string; first_name?: string; last_name?: string; academy_uid?: string; custody_status?: string };
        type E = { cohort_id: string; enrollment_status: string };
        const t0 = performance.now();
        const participants: P[] = await get('Participant?sort=-enrollment_date');
        const grid = document.createElement('div');
        const boxes = participants.map((p) => {
          const card = document.createElement('a');
          card.href = `/ParticipantDetail?id=${p.id}`;
          card.style.display = 'block';
          const h3 = document.createElement('h3');
          h3.textContent = `${p.first_name ?? ''} ${p.last_name ?? ''}`;
          const uid = document.createElement('p');
          uid.textContent = p.academy_uid ? `UID: ${p.academy_uid}` : '';
          const badge = document.createElement('span');
          badge.textContent = p.custody_status === 'in-custody' ? 'IN CUSTODY' : 'RELEASED';
          const cohorts = document.createElement('div');
          card.append(h3, uid, badge, cohorts);
          grid.append(card);
          return cohorts;
        });
        document.body.replaceChildren(grid);
        await frame();
        const firstRenderMs = performance.now() - t0;
        const enrollments: Promise<E[]>[] = participants.map((p) => get(`Enrollment?q=${encodeURIComponent(JSON.stringify({ participant_id: p.id }))}`));
        const cohortsP: Promise<{ id: string; cohort_code: string }[]> = get('Cohort');
        const show = (i: number, list: E[], codes: Map<string, string>) => {
          boxes[i].textContent = list.filter((e) => e.enrollment_status === 'active').map((e) => codes.get(e.cohort_id) ?? '').join(', ');
        };
        // Past the cap the run stops waiting (the requests still queued are simply abandoned).
        const left = () => (capMs > 0 ? Math.max(0, capMs - (performance.now() - t0)) : Infinity);
        const capped = <T,>(p: Promise<T>): Promise<T | null> =>
          left() === Infinity ? p : Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), left()))]);
        const firstScreenDone = await capped(
          (async () => {
            const codes = new Map((await cohortsP).map((c) => [c.id, c.cohort_code]));
            (await Promise.all(enrollments.slice(0, 12))).forEach((list, i) => show(i, list, codes));
            await frame();
            return codes;
          })(),
        );
        const firstScreenMs = firstScreenDone ? performance.now() - t0 : null;
        const all = firstScreenDone ? await capped(Promise.all(enrollments)) : null;
        if (all && firstScreenDone) {
          all.forEach((list, i) => show(i, list, firstScreenDone));
          await frame();
        }
        const allDoneMs = all ? performance.now() - t0 : null;
        return { firstRenderMs, firstScreenMs, allDoneMs, requests, answered, participants: participants.length, bytes };
      },
      { appId, token, capMs },
    );
    return { label, ...r };
  } finally {
    await context.close();
  }
}
