/**
 * Issue #22.7: a tablet holds its user's sites. The bench's coach works at 3 of the 200 sites
 * (dataset.ts `coachesOf`); an administrator holds every site. Measured here, each on a fresh
 * browser profile:
 * - the coach's first sync → Dashboard usable with the whole scope (loopback and facility link),
 *   and the bytes the whole first sync moves (sign-in + sync API, both ways);
 * - the participants the coach's tablet holds (its IndexedDB store) against the scope's;
 * - the scope grown by one site ("Sites on this tablet" on the Sync page) → that site's rows on the tablet;
 * - the administrator's first sync of every site → Participants usable, and the whole set.
 *
 * "Usable" is what the existing first-sync rows call usable: the Dashboard shows its figures only
 * once every entity it reads (PAGE_NEEDS.Dashboard: programs, cohorts, participants, enrollments)
 * has finished its first pull, so the first frame whose 'Total Participants' figure is the scope's
 * count is the Dashboard usable with the whole scope (page-marks.ts 'dashboard-figures'); the
 * Participants page shows cards and its count badge only once participants and cohorts are in
 * (PAGE_CORE.Participants), the first frame with cards and the badge at the whole total is
 * Participants usable (as measure-unlock.ts). Times are the app's: navigation (loopback; the
 * Sign in click on the facility link) → "Set a PIN" usable + Save PIN click → the result; the
 * PIN's typing left out, like every row crossing a lock screen.
 */
import type { Page, Request } from 'playwright-core';
import { participantCountLabel } from '../../../src/domain/participant-search';
import { listAll, type Api } from './api-client';
import { settle, signIn } from './browser';
import type { DelayProxy, LinkStats } from './delay-proxy';
import { BENCH_PIN, setPinOnScreen } from './device-lock';
import { injectHooks } from './inject-bundle';
import { marks, waitForMark } from './page-marks';

/** Mirror table → entity, for the tables the scope rows count (users left out: the directory is the server's to shape). */
export const MIRROR_TABLES: Record<string, string> = {
  programs: 'Program',
  sites: 'Site',
  cohorts: 'Cohort',
  participants: 'Participant',
  enrollments: 'Enrollment',
  sessions: 'Session',
  outcomes: 'Outcome',
};

/** The server's row count per mirror table (what a tablet holding every site ends up with). */
export async function serverCounts(api: Api, app: string): Promise<Record<string, number>> {
  return Object.fromEntries(
    await Promise.all(Object.entries(MIRROR_TABLES).map(async ([t, e]) => [t, (await api.get<{ count: number }>(`/apps/${app}/entities/${e}/count`)).count] as const)),
  );
}

export interface CoachScope {
  email: string;
  siteIds: string[];
  siteNames: string[];
  /** Rows per mirror table the coach's tablet holds: programs and sites whole, the rest of the scope's sites. */
  expected: Record<string, number>;
  /** Participants enrolled in cohorts of the scope's sites. */
  participantIds: string[];
  /** The site the scope grows by: its rows per mirror table (participants already held included). */
  grow: { siteId: string; siteName: string; ids: Record<string, string[]>; newParticipants: number } | null;
  /** The whole academy, for the rows' comparison. */
  totals: Record<string, number>;
}

type CohortRow = { id: string; site_id: string; lead_coach_email?: string | null; support_coach_emails?: string[] | null };

/** The rows of a set of sites, as the engine's rules select them (sync/scope.ts `scopeKeys`). */
function rowsOfSites(sites: ReadonlySet<string>, data: { cohorts: CohortRow[]; sessions: { id: string; cohort_id: string }[]; enrollments: { id: string; participant_id: string; cohort_id: string }[]; outcomes: { id: string; participant_id: string }[] }) {
  const cohorts = data.cohorts.filter((c) => sites.has(c.site_id)).map((c) => c.id);
  const cohortSet = new Set(cohorts);
  const sessions = data.sessions.filter((s) => cohortSet.has(s.cohort_id)).map((s) => s.id);
  const enrollmentRows = data.enrollments.filter((e) => cohortSet.has(e.cohort_id));
  const participants = [...new Set(enrollmentRows.map((e) => e.participant_id))];
  const people = new Set(participants);
  const outcomes = data.outcomes.filter((o) => people.has(o.participant_id)).map((o) => o.id);
  return { cohorts, sessions, enrollments: enrollmentRows.map((e) => e.id), participants, outcomes };
}

/**
 * The coach's scope as the server's data says it should be: the sites where they lead or support a
 * cohort; those sites' cohorts, their sessions and enrollments, the participants of those
 * enrollments and their outcomes; programs and sites whole. And the site it grows by: the first
 * other site (by the number in its name) with cohorts.
 */
export async function coachScope(api: Api, app: string, email: string): Promise<CoachScope> {
  const [cohorts, sessions, enrollments, outcomes, sites, totals] = await Promise.all([
    listAll<CohortRow>(api, app, 'Cohort', 'id,site_id,lead_coach_email,support_coach_emails'),
    listAll<{ id: string; cohort_id: string }>(api, app, 'Session', 'id,cohort_id'),
    listAll<{ id: string; participant_id: string; cohort_id: string }>(api, app, 'Enrollment', 'id,participant_id,cohort_id'),
    listAll<{ id: string; participant_id: string }>(api, app, 'Outcome', 'id,participant_id'),
    listAll<{ id: string; site_name: string }>(api, app, 'Site', 'id,site_name'),
    serverCounts(api, app),
  ]);
  const me = email.toLowerCase();
  const own = cohorts.filter((c) => c.lead_coach_email?.toLowerCase() === me || (c.support_coach_emails ?? []).some((e) => e?.toLowerCase() === me));
  const siteIds = [...new Set(own.map((c) => c.site_id))].sort();
  const nameOf = new Map(sites.map((s) => [s.id, s.site_name]));
  const data = { cohorts, sessions, enrollments, outcomes };
  const mine = rowsOfSites(new Set(siteIds), data);
  const numberIn = (name: string) => Number(/(\d+)\s*$/.exec(name)?.[1] ?? Infinity);
  const withCohorts = new Set(cohorts.map((c) => c.site_id));
  const next = sites.filter((s) => !siteIds.includes(s.id) && withCohorts.has(s.id)).sort((a, b) => numberIn(a.site_name) - numberIn(b.site_name))[0];
  let grow: CoachScope['grow'] = null;
  if (next) {
    const r = rowsOfSites(new Set([next.id]), data);
    const held = new Set(mine.participants);
    grow = {
      siteId: next.id,
      siteName: next.site_name,
      ids: { cohorts: r.cohorts, sessions: r.sessions, enrollments: r.enrollments, participants: r.participants, outcomes: r.outcomes },
      newParticipants: r.participants.filter((p) => !held.has(p)).length,
    };
  }
  return {
    email,
    siteIds,
    siteNames: siteIds.map((s) => nameOf.get(s) ?? s),
    expected: {
      programs: totals.programs,
      sites: totals.sites,
      cohorts: mine.cohorts.length,
      participants: mine.participants.length,
      enrollments: mine.enrollments.length,
      sessions: mine.sessions.length,
      outcomes: mine.outcomes.length,
    },
    participantIds: mine.participants,
    grow,
    totals,
  };
}

type Hooks = {
  mirrorCounts(): Promise<Record<string, number>>;
  tableKeys(tables: string[]): Promise<Record<string, string[]>>;
  missing(ids: Record<string, string[]>): Promise<number>;
  ownIntakes(): Promise<number>;
  tabletScope(): Promise<{ siteIds: string[]; all: boolean } | null>;
  setSiteChoice(choice: { userId: string; added: string[]; removed: string[] }): Promise<void>;
  pinWrapMs(pin: string): Promise<number>;
};

const linkDiff = (a: LinkStats, b: LinkStats) => ({ api: b.apiUp + b.apiDown - a.apiUp - a.apiDown, apiRequests: b.apiRequests - a.apiRequests, other: b.up + b.down - a.up - a.down - (b.apiUp + b.apiDown - a.apiUp - a.apiDown) });

/**
 * Every /api/ request's bytes both ways, as Chromium sent and received them: the request line
 * (Chromium's requestHeadersSize leaves out the URL, and a scoped pull's `$in` URLs run to 12 KB),
 * headers and encoded bodies. Checked against the facility link proxy's count of the same sync.
 */
function countApiBytes(page: Page) {
  const sized: Promise<number>[] = [];
  const on = (r: Request) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/')) return;
    const line = `${r.method()} ${url.pathname}${url.search} HTTP/1.1\r\n`.length;
    sized.push(r.sizes().then((s) => line + s.requestHeadersSize + s.requestBodySize + s.responseHeadersSize + s.responseBodySize).catch(() => 0));
  };
  page.on('requestfinished', on);
  return {
    async stop(): Promise<{ bytes: number; requests: number }> {
      page.off('requestfinished', on);
      const all = await Promise.all(sized);
      return { bytes: all.reduce((a, b) => a + b, 0), requests: all.length };
    },
  };
}

/**
 * After `syncedMark` held: the mirror's counts, polled until every table of `expected` is full.
 * Returns the page-clock time the mirror was complete (the mark itself when it already was).
 */
async function untilFull(page: Page, expected: Record<string, number>, syncedMark: number, timeoutMs = 300_000): Promise<{ at: number; counts: Record<string, number> }> {
  return page.evaluate(
    async ({ expected, syncedMark, timeoutMs }) => {
      const hooks = (window as unknown as { __benchHooks: Hooks }).__benchHooks;
      const t0 = performance.now();
      for (let first = true; ; first = false) {
        const counts = await hooks.mirrorCounts();
        if (Object.keys(expected).every((t) => counts[t] >= expected[t])) return { at: first ? syncedMark : performance.now(), counts };
        if (performance.now() - t0 > timeoutMs) throw new Error(`mirror not complete: ${JSON.stringify(counts)} of ${JSON.stringify(expected)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    { expected, syncedMark, timeoutMs },
  );
}

export interface ScopedSync {
  /** 'navigation' (loopback, as the Initial sync row) or 'sign-in click' (facility link, as its rows). */
  from: 'navigation' | 'sign-in click';
  /** Start → Dashboard usable with the whole scope: pinScreenMs + usableAfterSaveMs. */
  usableMs: number;
  /** Save PIN click → the app shown (mark 'app-ready'): the PIN's Argon2id and the vault, and on the link the app's chunks. */
  appReadyAfterSaveMs: number;
  /** One Argon2id wrap measured apart in the same page (hooks.pinWrapMs), after the sync. */
  argon2Ms: number | null;
  /** Start → every table of the scope complete in the mirror and the header at 'Up to date'. */
  completeMs: number;
  pinScreenMs: number;
  usableAfterSaveMs: number;
  completeAfterSaveMs: number;
  /** "Set a PIN" usable → Save PIN click: the bench typing (not counted). */
  typingMs: number;
  /** Sign-in and sync API, both ways, from the Sign in click to complete. */
  apiBytes: number;
  apiRequests: number;
  /** Facility link: app files and precache that crossed meanwhile. */
  otherBytes: number | null;
  countsAtUsable: Record<string, number>;
  counts: Record<string, number>;
  expected: Record<string, number>;
  sites: number;
}

/**
 * The coach's first sign-in on an empty profile (opened with `expectedParticipants` = the scope's
 * participants, so 'dashboard-figures' is the scope's figure): sign-in → Set a PIN → Dashboard
 * usable → complete. On loopback the bytes are Chromium's per request; through `link`, the proxy's.
 */
export async function measureScopedFirstSync(page: Page, origin: string, email: string, password: string, hooksScript: string, scope: CoachScope, link?: DelayProxy): Promise<ScopedSync> {
  // A coach opens the app's address first and is sent to the sign-in page (the app's entry is then
  // cached, as for the facility link's whole-set row, whose first visit comes before its sign-in).
  await page.goto(`${origin}/`);
  await page.getByLabel('Email').waitFor({ state: 'visible', timeout: 120_000 });
  const local = link ? null : countApiBytes(page);
  let before = link?.stats();
  let clicked = 0;
  await signIn(page, origin, email, password, '/', () => {
    before = link?.stats();
    clicked = Date.now();
  });
  // The hooks go in while the PIN screen waits for the typing (no row is read through them before Save PIN).
  await waitForMark(page, 'pin-screen', 120_000);
  await injectHooks(page, hooksScript, null);
  const pin = await setPinOnScreen(page);
  const usable = await waitForMark(page, 'dashboard-figures', 300_000);
  const countsAtUsable = await page.evaluate(() => (window as unknown as { __benchHooks: Hooks }).__benchHooks.mirrorCounts());
  const synced = await waitForMark(page, 'dashboard-synced', 300_000);
  const full = await untilFull(page, scope.expected, synced);
  const wire = link && before ? linkDiff(before, link.stats()) : null;
  const bytes = local ? await local.stop() : null;
  const appReady = (await marks(page))['app-ready'];
  const argon2Ms = await page.evaluate((pin) => (window as unknown as { __benchHooks: Hooks }).__benchHooks.pinWrapMs(pin), BENCH_PIN).catch(() => null);
  const origin0 = link ? await page.evaluate(() => performance.timeOrigin) : 0;
  // The PIN screen's time from the start: the navigation (mark as is) or the Sign in click.
  const pinScreenMs = link ? origin0 + pin.screenMs - clicked : pin.screenMs;
  return {
    from: link ? 'sign-in click' : 'navigation',
    usableMs: pinScreenMs + (usable - pin.submitMs),
    appReadyAfterSaveMs: appReady - pin.submitMs,
    argon2Ms,
    completeMs: pinScreenMs + (full.at - pin.submitMs),
    pinScreenMs,
    usableAfterSaveMs: usable - pin.submitMs,
    completeAfterSaveMs: full.at - pin.submitMs,
    typingMs: pin.submitMs - pin.screenMs,
    apiBytes: wire ? wire.api : bytes!.bytes,
    apiRequests: wire ? wire.apiRequests : bytes!.requests,
    otherBytes: wire ? wire.other : null,
    countsAtUsable,
    counts: full.counts,
    expected: scope.expected,
    sites: scope.siteIds.length,
  };
}

export interface ParticipantsHeld {
  /** Participants enrolled in cohorts of the coach's sites (the server's data). */
  scope: number;
  /** The tablet's participants store, counted. */
  tablet: number;
  /** This tablet's own intakes kept beyond the scope (pins 'own'). */
  ownIntakes: number;
  /** Held participants that are neither in the scope nor own intakes / scope participants not held. */
  outside: number;
  missing: number;
  sites: number;
  /** The whole academy's participants (the server's count). */
  academy: number;
}

export async function participantsHeld(page: Page, hooksScript: string, scope: CoachScope): Promise<ParticipantsHeld> {
  await injectHooks(page, hooksScript, null);
  const { keys, own } = await page.evaluate(async () => {
    const hooks = (window as unknown as { __benchHooks: Hooks }).__benchHooks;
    return { keys: (await hooks.tableKeys(['participants'])).participants, own: await hooks.ownIntakes() };
  });
  const want = new Set(scope.participantIds);
  const held = new Set(keys);
  return {
    scope: want.size,
    tablet: keys.length,
    ownIntakes: own,
    outside: keys.filter((id) => !want.has(id)).length,
    missing: scope.participantIds.filter((id) => !held.has(id)).length,
    sites: scope.siteIds.length,
    academy: scope.totals.participants,
  };
}

export interface ScopeGrow {
  /** Save click ("Sites on this tablet") → every row of the added site in the mirror. */
  ms: number;
  via: 'Sites on this tablet panel' | 'siteChoice meta row + Sync now';
  site: string;
  rows: Record<string, number>;
  newParticipants: number;
  /** API requests and bytes (both ways) from the click to 'Up to date'. */
  requests: number;
  bytes: number;
  sitesBefore: number;
  sitesAfter: number | null;
}

/**
 * The coach ticks one more site on the Sync page's "Sites on this tablet" and saves (the command
 * stores the choice and asks the engine to sync); the clock runs from the Save click to the first
 * poll (every 10 ms, keys only) that finds every row of that site in the mirror. Without the panel
 * (not built yet) the choice is written to the meta row the panel writes, and 'Sync now' clicked.
 */
export async function measureScopeGrow(page: Page, hooksScript: string, scope: CoachScope, userId: string): Promise<ScopeGrow> {
  const grow = scope.grow;
  if (!grow) throw new Error('no other site with cohorts to grow the scope by');
  // Unlocked: the fallback writes the meta row through the hooks' copy of the data layer.
  await injectHooks(page, hooksScript);
  await page.locator('[data-sync-state="up-to-date"]').first().waitFor({ timeout: 120_000 });
  // To the Sync page in the app: the header's sync chip links there.
  await page.locator('[data-testid="sync-indicator"] a').first().click();
  await page.waitForURL((u) => /\/sync$/i.test(u.pathname), { timeout: 30_000 });
  const heading = page.getByRole('heading', { name: 'Sites on this tablet' });
  const group = page.getByRole('group', { name: 'Sites on this tablet' });
  const panel = await group
    .waitFor({ timeout: 15_000 })
    .then(() => true)
    .catch(() => false);
  await settle(page, 500);
  if (panel) await group.getByRole('checkbox', { name: grow.siteName, exact: true }).check();
  const counted = countApiBytes(page);
  // Armed before the click: resolves with the next button click's timeStamp, then polls the mirror.
  const arm = page.evaluate(async (ids) => {
    const hooks = (window as unknown as { __benchHooks: Hooks }).__benchHooks;
    const clicked = await new Promise<number>((resolve) =>
      document.addEventListener(
        'click',
        function on(e) {
          if (!(e.target as Element | null)?.closest?.('button')) return;
          document.removeEventListener('click', on, { capture: true });
          resolve(e.timeStamp);
        },
        { capture: true },
      ),
    );
    for (;;) {
      if ((await hooks.missing(ids)) === 0) return performance.now() - clicked;
      await new Promise((r) => setTimeout(r, 10));
    }
  }, grow.ids);
  await page.waitForTimeout(50);
  if (panel) {
    await heading.locator('xpath=../..').getByRole('button', { name: 'Save', exact: true }).click();
  } else {
    await page.evaluate((choice) => (window as unknown as { __benchHooks: Hooks }).__benchHooks.setSiteChoice(choice), { userId, added: [grow.siteId], removed: [] });
    await page.getByRole('button', { name: 'Sync now' }).first().click();
  }
  const ms = await arm;
  await page.locator('[data-sync-state="up-to-date"]').first().waitFor({ timeout: 60_000 });
  await settle(page, 300);
  const { bytes, requests } = await counted.stop();
  const after = await page.evaluate(() => (window as unknown as { __benchHooks: Hooks }).__benchHooks.tabletScope());
  return {
    ms,
    via: panel ? 'Sites on this tablet panel' : 'siteChoice meta row + Sync now',
    site: grow.siteName,
    rows: Object.fromEntries(Object.entries(grow.ids).map(([t, ids]) => [t, ids.length])),
    newParticipants: grow.newParticipants,
    requests,
    bytes,
    sitesBefore: scope.siteIds.length,
    sitesAfter: after ? after.siteIds.length : null,
  };
}

export interface AdminSync {
  /** Navigation → "Set a PIN" usable + Save PIN click → Participants usable (cards, badge at the whole total). */
  participantsUsableMs: number;
  /** Navigation → … + Save PIN click → every table whole in the mirror and 'Up to date'. */
  completeMs: number;
  pinScreenMs: number;
  usableAfterSaveMs: number;
  /** Save PIN click → the app shown (mark 'app-ready'): the PIN's Argon2id and the vault. */
  appReadyAfterSaveMs: number;
  /** Save PIN click → the whole set: the sync's own time (the ratio to the IndexedDB floor). */
  completeAfterSaveMs: number;
  typingMs: number;
  apiBytes: number;
  apiRequests: number;
  rows: number;
  counts: Record<string, number>;
  /** The floor measured on this profile (BENCH_ONLY=scope; the full bench uses its own floor row's). */
  floor?: { rows: number; ms: number };
}

/**
 * The administrator's first sign-in on an empty profile, straight to Participants: every site,
 * pulled unfiltered. `expected` = the server's counts per mirror table at the start.
 */
export async function measureAdminFirstSync(page: Page, origin: string, email: string, password: string, hooksScript: string, expected: Record<string, number>): Promise<AdminSync> {
  const local = countApiBytes(page);
  await signIn(page, origin, email, password, '/Participants');
  await waitForMark(page, 'pin-screen', 120_000);
  const total = participantCountLabel(expected.participants);
  await page.evaluate((total) => {
    const usable = () =>
      location.pathname.toLowerCase() === '/participants' &&
      document.querySelector('a[href*="participantdetail" i] h3') !== null &&
      document.querySelector('[data-testid="skeleton-card"]') === null &&
      document.querySelector('[aria-live="polite"]')?.textContent?.trim() === total;
    window.__bench.watch('participants-usable', usable);
    window.__bench.watch('participants-synced', () => usable() && document.querySelector('[data-sync-state="up-to-date"]') !== null);
  }, total);
  await injectHooks(page, hooksScript, null);
  const pin = await setPinOnScreen(page);
  const usable = await waitForMark(page, 'participants-usable', 300_000);
  const synced = await waitForMark(page, 'participants-synced', 400_000);
  const full = await untilFull(page, expected, synced);
  const bytes = await local.stop();
  const appReady = (await marks(page))['app-ready'];
  return {
    participantsUsableMs: pin.screenMs + (usable - pin.submitMs),
    completeMs: pin.screenMs + (full.at - pin.submitMs),
    pinScreenMs: pin.screenMs,
    usableAfterSaveMs: usable - pin.submitMs,
    appReadyAfterSaveMs: appReady - pin.submitMs,
    completeAfterSaveMs: full.at - pin.submitMs,
    typingMs: pin.submitMs - pin.screenMs,
    apiBytes: bytes.bytes,
    apiRequests: bytes.requests,
    rows: Object.values(full.counts).reduce((a, b) => a + b, 0),
    counts: full.counts,
  };
}
