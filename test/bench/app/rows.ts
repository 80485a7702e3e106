/** Turns the raw measurements into the report rows of issue #6 (goal, met, ratio to baseline). */
import type { BaselineResult } from './baseline';
import { BASELINE_CAP_MS, describeLink, FACILITY_GOALS as G, FACILITY_LINK, GOAL_LABELS as GL } from './facility-link';
import type { BaselinePush, FacilitySync, FirstVisit } from './measure-facility';
import type { PushResult } from './measure-offline';
import type { PullResult } from './measure-pull';
import type { IdleMinute, LiveChange } from './measure-live';
import type { AttendanceTaps, RosterOpen } from './measure-attendance';
import type { AdminSync, ParticipantsHeld, ScopedSync, ScopeGrow } from './measure-scope';
import type { UnlockParticipants } from './measure-unlock';
import type { SealedCounts } from './page-marks';
import { kb, mb, median, ms, naRow, percentile, ratio, type Row } from './report';

export interface Results {
  initial?:
    | {
        /** The app's time (navigation → Set a PIN usable + Save PIN click → synced); the typing left out. */
        syncedMs: number;
        pinScreenMs?: number;
        syncedAfterSaveMs?: number;
        typingMs?: number;
        wallMs?: number;
        deviceKeyMs?: number | null;
        sealed?: SealedCounts | null;
        appReadyMs: number;
        figuresMs: number;
        jsGzip: number;
        jsRaw: number;
        jsFiles: number;
        jsNeededGzip: number;
        jsNeededFiles: number;
        apiBusyMs: number;
        apiRequests: number;
        apiBytes: number;
      }
    | string;
  open?: Record<string, number[]> | string;
  search?: Record<string, number[]> | string;
  /** Issue #23.7: AddParticipant's last-name keystrokes → possible duplicates shown, at CPU 4×. */
  duplicates?: number[] | string;
  /** interactiveMs = lockScreenMs + unlockToFiguresMs (issue #14: the PIN's typing left out). */
  coldStart?: { interactiveMs: number; lockScreenMs?: number; unlockToFiguresMs?: number; typingMs?: number; unlockToHeadingMs?: number } | string;
  /** Issue #14.4: Unlock click → Participants usable, after the Lock button on Participants. */
  unlock?: UnlockParticipants | string;
  /** Issue #14.4: sealRow/openRow per row over the mirror's rows; Argon2id wrap (Save PIN) and unwrap (Unlock). */
  crypto?: { perRow: Record<string, { rows: number; sealUs: number; openUs: number }>; wrapMs: number; unwrapMs: number } | string;
  requests?: { dataReads: number; usageLogs: number; otherApi: number; assetsFromNetwork: number } | string;
  push?:
    | { pushMs: number; queued: number; arrived: number; pushRequests: number; apiBusyMs: number; finished?: boolean; left?: number; leftStates?: Record<string, number>; leftErrors?: string[] }
    | string;
  /** Issue #24.1: with the change feed (S17); pullFallback: the same on a server without it (per entity). */
  pull?: PullResult | string;
  pullFallback?: PullResult | string;
  /** Issue #24.2 (S18): an administrator's change → visible on the coach's open page; an idle online minute. */
  liveChange?: LiveChange | string;
  liveChangeFacility?: LiveChange | string;
  idleMinute?: IdleMinute | string;
  heap?: { peak: number } | string;
  /**
   * ms: bulkPut only; engineMs: the engine's page writes of the same rows; v1Ms: bulkPut with
   * schema v1's indexes (all three sealed, as the app's database); plainEngineMs: the engine's
   * page writes without the encryption middleware (issue #14.4).
   */
  floor?: { rows: number; ms: number; engineMs?: number; plainEngineMs?: number; v1Ms?: number; sealedByTable?: Record<string, number> } | string;
  baseline?: BaselineResult[] | string;
  /** Issue #11: the same app through the facility link (facility-link.ts). */
  facilityVisit?: { compressed: FirstVisit; identity: FirstVisit } | string;
  facilitySync?: FacilitySync | string;
  facilityPull?: PullResult | string;
  facilityPullFallback?: PullResult | string;
  facilityPush?: (PushResult & { arrived: number }) | string;
  /** The online-only client through the same link: its Participants page (with the link's bytes) and 1,000 creates. */
  facilityBaseline?: { page: BaselineResult & { wireBytes: number }; push: BaselinePush } | string;
  /** Issue #22.7: the coach's first sync of their 3 sites, loopback and facility link (measure-scope.ts). */
  coachSync?: ScopedSync | string;
  coachFacility?: ScopedSync | string;
  /** The participants the coach's tablet holds (its store) against the scope's. */
  coachHeld?: ParticipantsHeld | string;
  /** The coach's scope grown by one site → its rows on the tablet. */
  scopeGrow?: ScopeGrow | string;
  /** The administrator's first sync of every site → Participants usable, and the whole set. */
  adminSync?: AdminSync | string;
  /** Issue #23: the coach's roster of 30 opened offline at CPU 4× (measure-attendance.ts). */
  rosterOpen?: RosterOpen | string;
  /** Issue #23: 30 taps on that roster, offline at CPU 4×: status shown and saved in IndexedDB. */
  attendanceTaps?: AttendanceTaps | string;
}

const err = (v: unknown): v is string => typeof v === 'string';

/** "8.4× / 6.8× (names: 3.55 s loopback, 2.85 s at 150 ms)": the baseline's time over ours, per run. */
function vsBaseline(base: BaselineResult[] | string | undefined, ours: number, pick: (b: BaselineResult) => number | null, what: string): string | undefined {
  if (!base || err(base)) return undefined;
  const done = base.filter((b) => pick(b) !== null);
  if (!done.length) return undefined;
  return `${done.map((b) => ratio(pick(b)!, ours)).join(' / ')} (${what}: ${done.map((b) => `${ms(pick(b)!)} ${b.label}`).join(', ')})`;
}

const mb2 = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const orMore = (v: number | null, capMs: number) => (v === null ? `not done in ${ms(capMs)}` : ms(v));

export function buildRows(r: Results): Row[] {
  const rows: Row[] = [];
  const i = r.initial;
  rows.push(
    !i || err(i)
      ? naRow('Initial sync of the whole data set → usable Dashboard', '≤ 3 s', i ?? 'not run')
      : {
          figure: 'Initial sync of the whole data set → usable Dashboard',
          value:
            `${ms(i.syncedMs)}` +
            (i.pinScreenMs !== undefined && i.syncedAfterSaveMs !== undefined
              ? ` (the app's time: navigation → "Set a PIN" usable ${ms(i.pinScreenMs)} + Save PIN click → synced ${ms(i.syncedAfterSaveMs)}; the PIN's typing, ${ms(i.typingMs ?? 0)}, left out)`
              : '') +
            ` (API in flight ${ms(i.apiBusyMs)}: ${i.apiRequests} requests, ${mb(i.apiBytes)}` +
            (r.floor && !err(r.floor)
              ? `; ${Math.round(r.floor.rows / (i.syncedMs / 1000))} rows/s; IndexedDB writes alone (sealed) ${ms(r.floor.ms)}, ` +
                `so the sync's local write rate is ${(r.floor.ms / i.syncedMs).toFixed(2)}× a plain bulkPut's` +
                (r.floor.engineMs
                  ? `; the engine's page writes alone ${ms(r.floor.engineMs)} (${(r.floor.ms / r.floor.engineMs).toFixed(2)}× bulkPut's rate), ` +
                    `bulkPut with v1's indexes ${ms(r.floor.v1Ms ?? 0)}` +
                    (r.floor.plainEngineMs ? `; the engine's page writes without encryption ${ms(r.floor.plainEngineMs)})` : ')')
                  : ')')
              : ')'),
          goal: '≤ 3 s',
          met: i.syncedMs <= 3000,
          detail: i,
        },
  );
  for (const rate of ['1', '4']) {
    const label = rate === '1' ? '' : ' (CPU 4× slower)';
    const runs = r.open && !err(r.open) ? r.open[rate] : undefined;
    if (!runs) rows.push(naRow(`Participants: click → first cards${label}`, '≤ 150 ms', err(r.open) ? r.open : 'not run'));
    else {
      const m = median(runs);
      rows.push({
        figure: `Participants: click → first cards${label}, median of ${runs.length}`,
        value: ms(m),
        goal: '≤ 150 ms',
        met: m <= 150,
        baseline: [vsBaseline(r.baseline, m, (b) => b.firstRenderMs, 'online-only, names on screen'), vsBaseline(r.baseline, m, (b) => b.firstScreenMs, 'online-only, first 12 cards complete')]
          .filter(Boolean)
          .join('; ') || undefined,
        detail: { runs },
      });
    }
    // Issue #11.5: p95 ≤ 30 ms at CPU 1× and ≤ 60 ms at CPU 4× (issue #6 gave the first only).
    const searchGoalMs = rate === '1' ? 30 : 60;
    const keys = r.search && !err(r.search) ? r.search[rate] : undefined;
    if (!keys) rows.push(naRow(`Search keystroke → updated results, p95${label}`, `≤ ${searchGoalMs} ms`, err(r.search) ? r.search : 'not run'));
    else {
      const p = percentile(keys, 95);
      rows.push({
        figure: `Search keystroke → updated results${label}, p95 of ${keys.length}`,
        value: ms(p),
        goal: `≤ ${searchGoalMs} ms`,
        met: p <= searchGoalMs,
        detail: { keys },
      });
    }
  }
  // Issue #23.7: duplicate candidates while typing at CPU 4×, goal p95 ≤ 100 ms.
  const d = r.duplicates;
  if (!d || err(d)) rows.push(naRow('Duplicate candidates while typing (CPU 4× slower), p95', '≤ 100 ms', d ?? 'not run'));
  else {
    const p = percentile(d, 95);
    rows.push({
      figure: `AddParticipant: keystroke → possible duplicates shown (CPU 4× slower, 10,000 participants on the tablet), p95 of ${d.length}`,
      value: ms(p),
      goal: '≤ 100 ms',
      met: p <= 100,
      detail: { keys: d },
    });
  }
  const c = r.coldStart;
  rows.push(
    !c || err(c)
      ? naRow('Cold start offline → interactive Dashboard', '≤ 800 ms', c ?? 'not run')
      : {
          figure: 'Cold start offline (service worker + Dexie) → interactive Dashboard',
          value:
            c.lockScreenMs !== undefined && c.unlockToFiguresMs !== undefined
              ? `${ms(c.interactiveMs)} = navigation → "Passage is locked" usable ${ms(c.lockScreenMs)} + Unlock click → Dashboard figures ${ms(c.unlockToFiguresMs)} (Argon2id of the PIN and unsealing included; the PIN's typing, ${ms(c.typingMs ?? 0)}, left out)`
              : ms(c.interactiveMs),
          goal: '≤ 800 ms',
          met: c.interactiveMs <= 800,
          detail: c,
        },
  );
  rows.push(...deviceLockRows(r));
  const q = r.requests;
  if (!q || err(q)) rows.push(naRow('Requests opening Participants, ParticipantDetail, CohortDetail', '0', q ?? 'not run'));
  else {
    const base = r.baseline && !err(r.baseline) ? r.baseline[0] : undefined;
    rows.push({
      figure: 'Requests opening Participants, ParticipantDetail, CohortDetail after sync',
      value: `${q.dataReads + q.otherApi} data (+${q.usageLogs} usage-log POSTs, spec 7.2; ${q.assetsFromNetwork} assets from network)`,
      goal: '0',
      met: q.dataReads + q.otherApi === 0,
      baseline: base ? `online-only: ${base.requests} requests for the Participants page alone` : undefined,
      detail: q,
    });
  }
  const p = r.push;
  rows.push(
    !p || err(p)
      ? naRow('1,000 queued ops pushed after reconnect', '≤ 5 s', p ?? 'not run')
      : {
          figure: `${p.queued.toLocaleString('en-US')} queued ops pushed after reconnect`,
          value:
            p.finished === false
              ? `did not finish: ${p.left} of ${p.queued} still queued after ${ms(p.pushMs)} (${JSON.stringify(p.leftStates)}${p.leftErrors?.length ? `; ${p.leftErrors.join('; ')}` : ''}; ${p.arrived} arrived; ${p.pushRequests} requests)`
              : `${ms(p.pushMs)} (${p.arrived} arrived; ${p.pushRequests} requests, API in flight ${ms(p.apiBusyMs)})`,
          goal: '≤ 5 s',
          met: p.finished !== false && p.pushMs <= 5000 && p.arrived === p.queued,
          detail: p },
  );
  const l = r.pull;
  rows.push(
    !l || err(l)
      ? naRow('Incremental pull of 10 remote changes, change feed', '1 request, ≤ 50 ms, ≤ 20 KB', l ?? 'not run')
      : {
          figure: 'Incremental pull of 10 remote changes (Sync now → in the mirror), change feed (S17)',
          value: `${ms(l.ms)}, ${kb(l.bytes)} in ${l.requests} request${l.requests === 1 ? '' : 's'}`,
          goal: '1 request, ≤ 50 ms, ≤ 20 KB',
          met: l.requests === 1 && l.ms <= 50 && l.bytes <= 20 * 1024,
          detail: { ...l },
        },
  );
  const lf = r.pullFallback;
  rows.push(
    !lf || err(lf)
      ? naRow('Incremental pull of 10 remote changes, per entity (server without the feed)', '≤ 100 ms, ≤ 20 KB', lf ?? 'not run')
      : { figure: 'Incremental pull of 10 remote changes, per entity (server without the feed)', value: `${ms(lf.ms)}, ${kb(lf.bytes)} in ${lf.requests} requests`, goal: '≤ 100 ms, ≤ 20 KB', met: lf.ms <= 100 && lf.bytes <= 20 * 1024, detail: { ...lf } },
  );
  const liveRow = (l: LiveChange | string | undefined, where: string, goalMs: number): Row =>
    !l || err(l)
      ? naRow(`Change made by an admin over HTTP → visible on the coach's open Participants page, ${where}`, `p95 of 10 ≤ ${goalMs / 1000} s`, l ?? 'not run')
      : {
          figure: `Change made by an admin over HTTP → visible on the coach's open Participants page (S18), ${where}`,
          value: `p95 ${ms(l.p95)} of 10 (median ${ms(median(l.runs))}; ${Math.max(...l.requests)} request${Math.max(...l.requests) === 1 ? '' : 's'} per change at most)`,
          goal: `p95 of 10 ≤ ${goalMs / 1000} s`,
          met: l.p95 <= goalMs,
          detail: { ...l },
        };
  rows.push(liveRow(r.liveChange, 'loopback', 1_000));
  rows.push(liveRow(r.liveChangeFacility, `facility link (${describeLink(FACILITY_LINK)})`, 2_000));
  const idle = r.idleMinute;
  rows.push(
    !idle || err(idle)
      ? naRow('Requests per idle minute online', '0 besides the stream', idle ?? 'not run')
      : {
          figure: "Requests per idle minute online (coach's Participants page open and visible)",
          value: `${idle.requests} besides the stream${idle.urls.length ? ` (${[...new Set(idle.urls)].join(', ')})` : ''}; stream opened ${idle.streamOpenings}× in the minute`,
          goal: '0 besides the stream',
          met: idle.requests === 0,
          detail: { ...idle },
        },
  );
  rows.push(
    !i || err(i)
      ? naRow('JavaScript before the first page renders, gzipped', '≤ 150 KB', i ?? 'not run')
      : {
          // Issue #14: on a first sign-in the first screen is "Set a PIN for this tablet" (the Dashboard
          // comes after the typing, by which time every screen's chunk is being preloaded).
          figure: `JavaScript before the first page renders, gzipped${i.pinScreenMs !== undefined ? ' (a first sign-in: the first page is "Set a PIN for this tablet")' : ''}`,
          value: `${kb(i.jsGzip)} in ${i.jsFiles} file${i.jsFiles === 1 ? '' : 's'} (${kb(i.jsRaw)} raw)`,
          goal: '≤ 150 KB',
          met: i.jsGzip <= 150 * 1024,
        },
  );
  rows.push(
    !i || err(i)
      ? naRow('JavaScript of a returning start that opens on the Dashboard, gzipped', '≤ 150 KB', i ?? 'not run')
      : {
          figure: 'JavaScript of a returning start that opens on the Dashboard (online, no PIN), gzipped: entry + layout + Dashboard chunks',
          value: `${kb(i.jsNeededGzip)} in ${i.jsNeededFiles} files`,
          goal: '≤ 150 KB',
          met: i.jsNeededGzip <= 150 * 1024,
        },
  );
  const h = r.heap;
  rows.push(
    !h || err(h)
      ? naRow('Peak JS heap, Participants page, 10,000 participants', '≤ 150 MB', h ?? 'not run')
      : { figure: 'Peak JS heap on the Participants page (open, scroll all, search)', value: mb(h.peak), goal: '≤ 150 MB', met: h.peak <= 150 * 1024 * 1024, detail: h },
  );
  if (r.baseline && !err(r.baseline)) {
    for (const b of r.baseline) {
      rows.push({
        figure: `Baseline, online-only Participants page (${b.label})`,
        value: `names ${ms(b.firstRenderMs)}, first screen complete ${orMore(b.firstScreenMs, 0)}, all ${orMore(b.allDoneMs, 0)}; ${b.requests} requests, ${mb(b.bytes)}`,
        goal: '—',
        met: null,
        detail: { ...b },
      });
    }
  } else rows.push(naRow('Baseline, online-only Participants page', '—', r.baseline ?? 'not run'));
  rows.push(...facilityRows(r));
  rows.push(...scopeRows(r));
  rows.push(...attendanceRows(r));
  return rows;
}

/** The goals of issue #23's rows (CPU 4×). */
export const ATTENDANCE_GOALS = { tapP95Ms: 50, rosterUsableMs: 300 };

/**
 * Issue #23's rows, on the coach's tablet with no network at CPU 4× (measure-attendance.ts): the
 * roster of 30 opened from the Dashboard → usable (median of the runs; the cold start on the
 * roster's address beside it), and tap → status shown and saved in IndexedDB (p95 of 30).
 */
export function attendanceRows(r: Results): Row[] {
  const rows: Row[] = [];
  const o = r.rosterOpen;
  const openFigure = 'Attendance: roster of 30 opened offline → usable (CPU 4× slower; Dashboard "Take attendance" click → every row, its status button and "Mark everyone present" on screen)';
  if (!o || err(o)) rows.push(naRow(openFigure, `≤ ${ATTENDANCE_GOALS.rosterUsableMs} ms`, o ?? 'not run'));
  else {
    const m = median(o.runs);
    rows.push({
      figure: `${openFigure}, median of ${o.runs.length}`,
      value:
        `${ms(m)} (runs ${o.runs.map(ms).join(', ')}; ${o.rows} on the roster; the app started offline on the roster's own address: ` +
        `navigation → "Passage is locked" usable ${ms(o.cold.lockScreenMs)} + Unlock click → roster usable ${ms(o.cold.unlockToRosterMs)} = ${ms(o.cold.lockScreenMs + o.cold.unlockToRosterMs)}, Argon2id of the PIN included, its typing (${ms(o.cold.typingMs)}) left out)`,
      goal: `≤ ${ATTENDANCE_GOALS.rosterUsableMs} ms`,
      met: m <= ATTENDANCE_GOALS.rosterUsableMs,
      detail: { ...o },
    });
  }
  const t = r.attendanceTaps;
  const tapFigure = 'Attendance: tap → status shown and saved in IndexedDB (CPU 4× slower, offline, roster of 30; each row once, unmarked → Present)';
  if (!t || err(t)) rows.push(naRow(`${tapFigure}, p95`, `≤ ${ATTENDANCE_GOALS.tapP95Ms} ms`, t ?? 'not run'));
  else {
    const p = percentile(t.taps, 95);
    rows.push({
      figure: `${tapFigure}, p95 of ${t.taps.length}`,
      value: `${ms(p)} (median ${ms(median(t.taps))}, max ${ms(Math.max(...t.taps))}; shown alone p95 ${ms(percentile(t.shown, 95))}, saved alone p95 ${ms(percentile(t.saved, 95))}; ${t.records} records on the tablet after)`,
      goal: `≤ ${ATTENDANCE_GOALS.tapP95Ms} ms`,
      met: p <= ATTENDANCE_GOALS.tapP95Ms,
      detail: { ...t },
    });
  }
  return rows;
}

/** The goals of issue #22.7's rows. */
export const SCOPE_GOALS = { coachUsableMs: 1_000, coachUsableLinkMs: 3_000, coachBytes: 200 * 1024, growMs: 2_000, adminUsableMs: 3_000, adminFloorRatio: 1.1 };

/**
 * Issue #22.7's rows: a tablet holds its user's sites. The coach's first sync (loopback and
 * facility link: Dashboard usable with the whole scope, and the whole first sync's bytes), the
 * participants the coach's tablet holds, the scope grown by one site, and the administrator's
 * first sync of every site (Participants usable; the whole set against the IndexedDB floor: the
 * floor row's, or BENCH_ONLY=scope's own on the administrator's profile).
 */
export function scopeRows(r: Results): Row[] {
  const rows: Row[] = [];
  const link = `facility link (${describeLink(FACILITY_LINK)})`;
  const coach = (s: ScopedSync | string | undefined, where: string, goalMs: number) => {
    const figure = `Coach's first sync (${typeof s === 'object' ? s.sites : 3} of 200 sites) → Dashboard usable with the whole scope (the sync's time: the app shown after Save PIN → usable), ${where}`;
    const goal = `≤ ${goalMs / 1000} s`;
    if (!s || err(s)) return naRow(figure, goal, s ?? 'not run');
    const rowsIn = (c: Record<string, number>) => Object.keys(s.expected).reduce((a, t) => a + (c[t] ?? 0), 0);
    return {
      figure,
      value:
        `${ms(s.usableAfterSaveMs - s.appReadyAfterSaveMs)}; from the ${s.from}, PIN set up included: ${ms(s.usableMs)} (the app's time: ${s.from} → "Set a PIN" usable ${ms(s.pinScreenMs)} + Save PIN click → Dashboard usable ${ms(s.usableAfterSaveMs)}; the PIN's typing, ${ms(s.typingMs)}, left out; ` +
        `of the second part, Save PIN click → the app shown ${ms(s.appReadyAfterSaveMs)} (the PIN's Argon2id${s.argon2Ms !== null ? `, ${ms(s.argon2Ms)} measured apart` : ''}${s.from === 'sign-in click' ? ", and the app's chunks through the link" : ''}), the app shown → Dashboard usable ${ms(s.usableAfterSaveMs - s.appReadyAfterSaveMs)}) ` +
        `(whole scope in the mirror, Up to date: ${ms(s.completeMs)}; ${rowsIn(s.counts).toLocaleString('en-US')} rows: ` +
        `${s.counts.participants} participants, ${s.counts.enrollments} enrollments, ${s.counts.cohorts} cohorts, ${s.counts.sessions} sessions, ${s.counts.outcomes} outcomes, ${s.counts.programs} programs, ${s.counts.sites} sites)`,
      goal,
      // The goal is the first sync's: the PIN's set-up (Argon2id, issue #21) comes before any sync.
      met: s.usableAfterSaveMs - s.appReadyAfterSaveMs <= goalMs,
      detail: { ...s },
    };
  };
  const bytes = (s: ScopedSync | string | undefined, where: string) => {
    const figure = `Coach's first sync, bytes on the wire (sign-in + sync API, both ways, until the whole scope is in), ${where}`;
    const goal = '≤ 200 KB';
    if (!s || err(s)) return naRow(figure, goal, s ?? 'not run');
    return {
      figure,
      value: `${kb(s.apiBytes)} in ${s.apiRequests} requests${s.otherBytes !== null ? ` (+${kb(s.otherBytes)} of app files and precache meanwhile)` : ''}`,
      goal,
      met: s.apiBytes <= SCOPE_GOALS.coachBytes,
    };
  };
  rows.push(coach(r.coachSync, 'loopback', SCOPE_GOALS.coachUsableMs), bytes(r.coachSync, 'loopback'));
  /** A row from a step's result, or n/a with the step's error (or 'not run'). */
  const rowOf = <T extends object>(result: T | string | undefined, figure: string, goal: string, build: (v: T) => Omit<Row, 'figure' | 'goal'>): Row =>
    !result || err(result) ? naRow(figure, goal, result ?? 'not run') : { figure, goal, ...build(result) };
  rows.push(
    rowOf(r.coachHeld, "Participants held by the coach's tablet (its IndexedDB store counted) vs the scope (participants enrolled in cohorts of the coach's sites)", 'tablet = scope + own intakes', (h) => ({
      value:
        `scope ${h.scope.toLocaleString('en-US')} (at ${h.sites} sites), tablet ${h.tablet.toLocaleString('en-US')} (own intakes ${h.ownIntakes}` +
        `${h.outside ? `; ${h.outside} held from beyond the scope` : ''}${h.missing ? `; ${h.missing} of the scope missing` : ''}; the academy has ${h.academy.toLocaleString('en-US')})`,
      met: h.tablet === h.scope + h.ownIntakes && h.missing === 0,
      detail: { ...h },
    })),
    rowOf(r.scopeGrow, "Coach's scope grows by one site (ticked on the Sync page's \"Sites on this tablet\", Save click) → that site's rows on the tablet, loopback", '≤ 2 s', (g) => ({
      value:
        `${ms(g.ms)} (${Object.values(g.rows).reduce((x, y) => x + y, 0).toLocaleString('en-US')} rows: ${g.rows.cohorts} cohorts, ${g.rows.sessions} sessions, ${g.rows.enrollments} enrollments, ` +
        `${g.rows.participants} participants (${g.newParticipants} new to the tablet), ${g.rows.outcomes} outcomes; ${kb(g.bytes)} in ${g.requests} requests; ` +
        `sites on the tablet ${g.sitesBefore} → ${g.sitesAfter ?? '?'}${g.via === 'Sites on this tablet panel' ? '' : `; via the ${g.via}`})`,
      met: g.ms <= SCOPE_GOALS.growMs,
      detail: { ...g },
    })),
  );
  const a = r.adminSync;
  rows.push(
    rowOf(a, "Administrator's first sync of every site → Participants usable (cards and the whole count; the sync's time: the app shown after Save PIN → usable), loopback", '≤ 3 s', (v) => ({
      value:
        `${ms(v.usableAfterSaveMs - v.appReadyAfterSaveMs)}; from the navigation, PIN set up included: ${ms(v.participantsUsableMs)} (the app's time: navigation → "Set a PIN" usable ${ms(v.pinScreenMs)} + Save PIN click → usable ${ms(v.usableAfterSaveMs)}; the PIN's typing, ${ms(v.typingMs)}, left out; ` +
        `of the second part, Save PIN click → the app shown ${ms(v.appReadyAfterSaveMs)} (the PIN's Argon2id), the app shown → Participants usable ${ms(v.usableAfterSaveMs - v.appReadyAfterSaveMs)}; ${v.counts.participants.toLocaleString('en-US')} participants)`,
      met: v.usableAfterSaveMs - v.appReadyAfterSaveMs <= SCOPE_GOALS.adminUsableMs,
      detail: { ...v },
    })),
  );
  const floor = a && !err(a) && a.floor ? a.floor : r.floor && !err(r.floor) ? r.floor : undefined;
  const wholeFigure =
    "Administrator's first sync of every site → the whole set in the mirror (the sync's time: the app shown after Save PIN → every row in and Up to date), vs the IndexedDB floor (the same rows bulkPut, sealed)";
  if (!a || err(a)) rows.push(naRow(wholeFigure, '≤ 1.1× the floor', a ?? 'not run'));
  else if (!floor) rows.push(naRow(wholeFigure, '≤ 1.1× the floor', err(r.floor) ? `floor: ${r.floor}` : 'floor not measured'));
  else {
    const syncMs = a.completeAfterSaveMs - a.appReadyAfterSaveMs;
    const x = syncMs / floor.ms;
    rows.push({
      figure: wholeFigure,
      value:
        `${x.toFixed(2)}× (${ms(syncMs)} for ${a.rows.toLocaleString('en-US')} rows; the floor ${ms(floor.ms)} for ${floor.rows.toLocaleString('en-US')}; ` +
        `with the PIN's Argon2id, Save PIN click → whole set ${ms(a.completeAfterSaveMs)} (${(a.completeAfterSaveMs / floor.ms).toFixed(2)}×); navigation → whole set ${ms(a.completeMs)}; ${mb(a.apiBytes)} in ${a.apiRequests} API requests)`,
      goal: '≤ 1.1× the floor',
      met: x <= SCOPE_GOALS.adminFloorRatio,
      detail: { ...a, floor },
    });
  }
  rows.push(coach(r.coachFacility, link, SCOPE_GOALS.coachUsableLinkMs), bytes(r.coachFacility, link));
  return rows;
}

/**
 * Issue #14.4's rows. Unlock → Participants usable: the median of the runs (Lock button on the
 * Participants page, PIN typed, Unlock click → first cards with the whole total). First sync with
 * encryption vs without: the first sync as measured (the Initial sync row's time, T) over an
 * estimate of the same without encryption, T − Δ, where Δ adds up what encryption adds, each
 * measured in the same run and page: the engine's page writes of the same pulled pages into a
 * sealed PassageDB minus the same into one without the middleware (alternating page by page);
 * the sealed rows the page read during the sync (counted at IndexedDB) × the time to open one
 * (openRow over the mirror's rows); the PIN's Argon2id at Save PIN and the server-key request.
 */
export function deviceLockRows(r: Results): Row[] {
  const rows: Row[] = [];
  const u = r.unlock;
  const cr = r.crypto && !err(r.crypto) ? r.crypto : undefined;
  if (!u || err(u) || !u.runs.length) rows.push(naRow('Unlock → Participants usable, 10,000 participants', '≤ 1.5 s', err(u) ? u : 'not run'));
  else {
    const m = median(u.runs);
    rows.push({
      figure: `Unlock → Participants usable, 10,000 participants (Lock on the Participants page, PIN typed, Unlock click → first cards with the whole total), median of ${u.runs.length}`,
      value:
        `${ms(m)} (runs ${u.runs.map(ms).join(', ')}; includes Argon2id, 64 MiB${cr ? `: ${ms(cr.unwrapMs)} measured apart` : ''}, and opening the participants` +
        `${u.sealedRead?.length && u.sealedRead.every((n) => n !== null) ? ` (sealed rows read per run: ${u.sealedRead.map((n) => n!.toLocaleString('en-US')).join(', ')})` : ''}` +
        `${cr?.perRow.participants ? `: ${ms((cr.perRow.participants.openUs * cr.perRow.participants.rows) / 1000)} for ${cr.perRow.participants.rows.toLocaleString('en-US')} rows measured apart` : ''}; ` +
        `each Unlock after 4 s on the lock screen, once Dexie's 3 s live-query cache has let go of the decrypted list)`,
      goal: '≤ 1.5 s',
      met: m <= 1500,
      detail: { ...u },
    });
  }
  const i = r.initial;
  const f = r.floor;
  const why = err(i) ? i : err(f) ? `floor: ${f}` : err(r.crypto) ? `crypto: ${r.crypto}` : 'not run';
  if (!i || err(i) || !f || err(f) || f.engineMs === undefined || f.plainEngineMs === undefined || !cr || !i.sealed) {
    rows.push(naRow('First sync with encryption vs without', '≤ 1.2×', why === 'not run' && i && !err(i) && !i.sealed ? 'sealed rows not counted' : why));
    return rows;
  }
  const fallback = cr.perRow.participants ?? Object.values(cr.perRow)[0];
  const cost = (t: string) => cr.perRow[t] ?? fallback;
  const sum = (counts: Record<string, number>, pick: (c: { sealUs: number; openUs: number }) => number) =>
    Object.entries(counts).reduce((a, [t, n]) => a + (n * pick(cost(t))) / 1000, 0);
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const writeMs = f.engineMs - f.plainEngineMs;
  const openMs = sum(i.sealed.read, (c) => c.openUs);
  const sealByCountMs = sum(i.sealed.written, (c) => c.sealUs);
  const keyMs = cr.wrapMs + (i.deviceKeyMs ?? 0);
  const delta = writeMs + openMs + keyMs;
  const without = i.syncedMs - delta;
  const x = i.syncedMs / without;
  rows.push({
    figure: 'First sync with encryption vs without (the first sync measured, over it less what encryption adds, each part measured in the same run)',
    value:
      `${x.toFixed(2)}× (${ms(i.syncedMs)} vs ≈ ${ms(without)}: sealing in the engine's page writes +${ms(writeMs)} ` +
      `(${ms(f.engineMs)} sealed vs ${ms(f.plainEngineMs)} without the middleware, the same pages alternating), ` +
      `opening the ${total(i.sealed.read).toLocaleString('en-US')} sealed rows the page read meanwhile ${ms(openMs)}, ` +
      `Argon2id at Save PIN ${ms(cr.wrapMs)} + the server key ${ms(i.deviceKeyMs ?? 0)}; ` +
      `cross-check: ${total(i.sealed.written).toLocaleString('en-US')} rows sealed × ${cost('participants').sealUs.toFixed(0)}/${cost('outcomes').sealUs.toFixed(0)} µs (participant/outcome) = ${ms(sealByCountMs)})`,
    goal: '≤ 1.2×',
    met: x <= 1.2,
    detail: { syncedMs: i.syncedMs, withoutMs: without, writeMs, openMs, keyMs, sealByCountMs, sealed: i.sealed, perRow: cr.perRow, wrapMs: cr.wrapMs, deviceKeyMs: i.deviceKeyMs },
  });
  return rows;
}

/** Issue #11's table: each figure through the facility link, with its goal and the online-only client through the same link. */
export function facilityRows(r: Results): Row[] {
  const rows: Row[] = [];
  const link = `facility link (${describeLink(FACILITY_LINK)})`;
  const fb = r.facilityBaseline && !err(r.facilityBaseline) ? r.facilityBaseline : undefined;
  const bp = fb?.page;
  const pageBaseline = bp
    ? `online-only Participants page through the link: names ${ms(bp.firstRenderMs)}, first 12 cards complete ${bp.firstScreenMs === null ? `not within ${ms(BASELINE_CAP_MS)} (${bp.answered} of ${bp.requests} requests answered)` : ms(bp.firstScreenMs)}`
    : err(r.facilityBaseline) ? `online-only: n/a: ${r.facilityBaseline}` : undefined;

  const v = r.facilityVisit;
  rows.push(
    !v || err(v)
      ? naRow(`First visit: navigation → sign-in page usable, ${link}`, GL.firstVisit, v ?? 'not run')
      : {
          figure: `First visit: navigation → sign-in page usable, ${link}`,
          value: `${ms(v.compressed.ms)} (${v.compressed.requests} requests, ${kb(v.compressed.bytesDown)} down)`,
          goal: GL.firstVisit,
          met: v.compressed.ms <= G.firstVisitMs,
          baseline: `online-only client: no first-visit counterpart (its pages are the same kind of app shell); this app uncompressed, as before #11: ${ms(v.identity.ms)}, ${kb(v.identity.bytesDown)} down (${ratio(v.identity.ms, v.compressed.ms)})`,
          detail: v,
        },
  );
  const s = r.facilitySync;
  rows.push(
    !s || err(s)
      ? naRow('First sync → Participants usable (participants + cohorts on the tablet), facility link', GL.participantsUsable, s ?? 'not run')
      : {
          figure: 'First sync of the bench data set → Participants usable (participants + cohorts on the tablet), facility link',
          value:
            `${ms(s.participantsUsableMs)} from the Sign in click` +
            (s.pinScreenMs !== undefined
              ? `, the app's time: Sign in click → "Set a PIN" usable ${ms(s.pinScreenMs)} + Save PIN click → usable ${ms(s.usableAfterSaveMs)} (the PIN's typing, ${ms(s.typingMs)}, left out)`
              : '') +
            ` (whole data set in the mirror, Up to date: ${ms(s.completeMs)})`,
          goal: GL.participantsUsable,
          met: s.participantsUsableMs <= G.participantsUsableMs,
          baseline: pageBaseline,
          detail: { ...s },
        },
  );
  rows.push(
    !s || err(s)
      ? naRow('First sync complete, bytes on the wire, facility link', GL.firstSyncBytes, s ?? 'not run')
      : {
          figure: 'First sync complete, bytes on the wire (sign-in + sync API, both ways), facility link',
          value: `${mb2(s.apiBytes)} in ${s.apiRequests} requests (+${mb2(s.otherBytes)} of app files and precache meanwhile)`,
          goal: GL.firstSyncBytes,
          met: s.apiBytes <= G.firstSyncBytes,
          baseline: bp ? `online-only: ${mb2(bp.wireBytes)} on the wire in one Participants visit${bp.allDoneMs === null ? ` (its first ${ms(BASELINE_CAP_MS)}, not complete)` : ''}, again on every visit` : pageBaseline,
        },
  );
  const l = r.facilityPull;
  rows.push(
    !l || err(l)
      ? naRow('Incremental pull of 10 changes, facility link, change feed', '1 request, ≤ 500 ms', l ?? 'not run')
      : {
          figure: 'Incremental pull of 10 changes (Sync now → in the mirror), facility link, change feed (S17)',
          value: `${ms(l.ms)}, ${kb(l.bytes)} in ${l.requests} request${l.requests === 1 ? '' : 's'}`,
          goal: '1 request, ≤ 500 ms',
          met: l.requests === 1 && l.ms <= 500,
          baseline: bp ? `online-only sees changes by re-reading the page: names ${ms(bp.firstRenderMs)} per visit (${ratio(bp.firstRenderMs, l.ms)})` : pageBaseline,
          detail: { ...l },
        },
  );
  const lff = r.facilityPullFallback;
  rows.push(
    !lff || err(lff)
      ? naRow('Incremental pull of 10 changes, facility link, per entity (server without the feed)', GL.pull, lff ?? 'not run')
      : {
          figure: 'Incremental pull of 10 changes, facility link, per entity (server without the feed)',
          value: `${ms(lff.ms)}, ${kb(lff.bytes)} in ${lff.requests} requests`,
          goal: GL.pull,
          met: lff.ms <= G.pullMs,
          detail: { ...lff },
        },
  );
  const p = r.facilityPush;
  const pb = fb?.push;
  rows.push(
    !p || err(p)
      ? naRow('1,000 queued ops pushed, facility link', GL.push, p ?? 'not run')
      : {
          figure: `${p.queued.toLocaleString('en-US')} queued ops pushed after reconnect, facility link`,
          value: `${ms(p.pushMs)} (${p.arrived} arrived; ${p.pushRequests} requests)`,
          goal: GL.push,
          met: p.pushMs <= G.pushMs && p.arrived === p.queued,
          baseline: pb
            ? `online-only: ${pb.sent.toLocaleString('en-US')} creates, one request each: ${pb.ms === null ? `not done in ${ms(pb.capMs)} (${pb.answered} answered)` : `${ms(pb.ms)} (${ratio(pb.ms, p.pushMs)})`}`
            : pageBaseline,
          detail: { ...p },
        },
  );
  return rows;
}
