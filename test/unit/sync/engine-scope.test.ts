import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import type { Row } from '../../../src/data/sync/types';
import { OPENED_TTL_MS, SITE_CHOICE_KEY, TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant } from '../../../src/data/commands/enrollments';

/**
 * Issue #22: a coach's tablet holds the sites of their cohorts. Engine against the scripted
 * transport: what arrives, what leaves, what a scope change may never drop.
 */
const COACH = 'coach@example.org';

interface World {
  h: Harness;
  sites: Row[];
  cohorts: Row[];
  /** participants[i] enrolled in cohorts[i % 3] */
  participants: Row[];
}

/** Three sites; the coach leads cohort 0 (site 0) and supports cohort 2 (site 2); cohort 1 (site 1) is someone else's. */
function world(opts: { pageSize?: number } = {}): World {
  const h = makeHarness({ scope: { email: COACH, everySite: false }, tuning: { pageSize: opts.pageSize ?? 5000 } });
  const s = h.transport.server;
  s.create('Program', { program_name: 'Construction' });
  s.create('User', { email: COACH, full_name: 'Coach' });
  const sites = [0, 1, 2].map((i) => s.create('Site', { site_name: `Site ${i}` }));
  const cohorts = [
    s.create('Cohort', { cohort_code: 'C0', site_id: sites[0].id, lead_coach_email: COACH, support_coach_emails: [] }),
    s.create('Cohort', { cohort_code: 'C1', site_id: sites[1].id, lead_coach_email: 'other@example.org', support_coach_emails: [] }),
    s.create('Cohort', { cohort_code: 'C2', site_id: sites[2].id, lead_coach_email: 'other@example.org', support_coach_emails: [COACH] }),
  ];
  for (const c of cohorts) s.create('Session', { cohort_id: c.id, session_number: 1 });
  const participants = Array.from({ length: 6 }, (_, i) => s.create('Participant', { first_name: `P${i}`, last_name: 'Test' }));
  participants.forEach((p, i) => s.create('Enrollment', { participant_id: p.id, cohort_id: cohorts[i % 3].id, enrollment_status: 'active' }));
  participants.forEach((p) => s.create('Outcome', { participant_id: p.id, outcome_type: 'employment' }));
  return { h, sites, cohorts, participants };
}

const ids = async (h: Harness, table: 'participants' | 'cohorts' | 'enrollments' | 'sessions' | 'outcomes' | 'sites' | 'programs') =>
  ((await h.db.table(table).toCollection().primaryKeys()) as string[]).sort();
const idsOf = (rows: Row[]) => rows.map((r) => r.id).sort();
const scopeOf = async (h: Harness) => (await h.db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope;
const choose = (h: Harness, added: string[], removed: string[]) => h.db.meta.put({ key: SITE_CHOICE_KEY, value: { userId: 'user-1', added, removed } });

describe('S15, issue #22: a tablet holds its coach\'s sites', () => {
  it('holds the sites of the cohorts the coach leads or supports: their cohorts, sessions, enrollments, participants and outcomes; all programs, sites and users', async () => {
    const { h, sites, cohorts, participants } = world();
    await h.engine.start();
    await h.settle();
    const mine = participants.filter((_, i) => i % 3 !== 1);
    expect(await ids(h, 'cohorts')).toEqual(idsOf([cohorts[0], cohorts[2]]));
    expect(await ids(h, 'participants')).toEqual(idsOf(mine));
    expect(await h.db.enrollments.count()).toBe(4);
    expect(await h.db.sessions.count()).toBe(2);
    expect(await h.db.outcomes.count()).toBe(4);
    expect(await ids(h, 'sites')).toEqual(idsOf(sites));
    expect(await h.db.programs.count()).toBe(1);
    const scope = await scopeOf(h);
    expect(scope).toMatchObject({ all: false, siteIds: idsOf([sites[0], sites[2]]), defaultSiteIds: idsOf([sites[0], sites[2]]) });
    expect((await h.status()).firstSyncComplete).toBe(true);
    // The first pull listed the whole scope into empty tables: no id listing (S6) right after it.
    const listings = h.transport.callsOf('filter').filter((c) => c.args[1] === 'id' && JSON.stringify(c.args[4]) === '["id"]');
    expect(listings).toEqual([]);
    // Filtered by the API's own operators: no unfiltered read of a scoped entity.
    const participantReads = h.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date');
    expect(participantReads.every((c) => JSON.stringify(c.args[0]).includes('$in'))).toBe(true);
  });

  it('an administrator holds every site, pulled without filters, and may leave sites off', async () => {
    const { h, sites, participants } = world();
    const admin = makeHarness({ scope: { email: 'admin@example.org', everySite: true }, transport: h.transport });
    await admin.engine.start();
    await admin.settle();
    expect(await ids(admin, 'participants')).toEqual(idsOf(participants));
    expect((await scopeOf(admin)).all).toBe(true);
    const reads = admin.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date');
    expect(reads.every((c) => !JSON.stringify(c.args[0]).includes('$in'))).toBe(true);
    await choose(admin, [], [sites[1].id]);
    await admin.engine.runOnce();
    expect(await ids(admin, 'participants')).toEqual(idsOf(participants.filter((_, i) => i % 3 !== 1)));
    expect((await scopeOf(admin)).all).toBe(false);
    // Back to every site: the rows of site 1 come back.
    await choose(admin, [], []);
    await admin.engine.runOnce();
    expect(await ids(admin, 'participants')).toEqual(idsOf(participants));
  });

  it('grows: an added site\'s rows arrive in the next cycle, however old they are', async () => {
    const { h, sites, cohorts, participants } = world();
    await h.engine.start();
    await h.settle();
    await h.engine.runOnce(); // cursors are now past every row of site 1
    await choose(h, [sites[1].id], []);
    await h.engine.runOnce();
    expect(await ids(h, 'cohorts')).toEqual(idsOf(cohorts));
    expect(await ids(h, 'participants')).toEqual(idsOf(participants));
    expect(await h.db.sessions.count()).toBe(3);
    expect(await h.db.outcomes.count()).toBe(6);
  });

  it('grows when the coach is given a cohort at another site (server side), and a participant enrolled there on another device arrives with the enrollment', async () => {
    const { h, cohorts, participants } = world();
    await h.engine.start();
    await h.settle();
    const s = h.transport.server;
    const newcomer = s.create('Participant', { first_name: 'New', last_name: 'Comer' });
    s.create('Enrollment', { participant_id: newcomer.id, cohort_id: cohorts[0].id, enrollment_status: 'active' });
    s.update('Cohort', cohorts[1].id, { lead_coach_email: COACH });
    await h.engine.runOnce();
    expect(await ids(h, 'participants')).toEqual(idsOf([...participants, newcomer]));
  });

  it('shrinks: a reassigned cohort\'s site leaves the tablet, except a participant with a change still waiting to be sent, which stays until sent', async () => {
    const { h, cohorts, participants } = world();
    await h.engine.start();
    await h.settle();
    const waiting = participants[2]; // cohort 2, site 2
    h.transport.failNext({ method: 'update' }, { kind: 'status', status: 503 }, 1);
    await updateParticipant(h.data, waiting.id, { first_name: 'Changed' });
    h.transport.server.update('Cohort', cohorts[2].id, { support_coach_emails: [] });
    await h.engine.runOnce();
    expect(await ids(h, 'cohorts')).toEqual(idsOf([cohorts[0]]));
    // Participant 5 (cohort 2) left; participant 2 stays with its queued change, nothing dropped.
    expect(await ids(h, 'participants')).toEqual(idsOf([participants[0], participants[3], waiting]));
    expect(await h.db.outbox.count()).toBe(1);
    expect((await h.db.participants.get(waiting.id))?.first_name).toBe('Changed');
    // The change goes out; the participant then leaves like the others.
    h.engine.syncNow();
    await h.advance(20 * 60_000);
    expect(h.transport.server.get('Participant', waiting.id)?.first_name).toBe('Changed');
    expect(await h.db.outbox.count()).toBe(0);
    await h.engine.runOnce();
    expect(await ids(h, 'participants')).toEqual(idsOf([participants[0], participants[3]]));
  });

  it('a removed site leaves; its rows come back whole when it is added again', async () => {
    const { h, sites, participants } = world();
    await h.engine.start();
    await h.settle();
    await choose(h, [], [sites[2].id]);
    await h.engine.runOnce();
    expect(await ids(h, 'participants')).toEqual(idsOf([participants[0], participants[3]]));
    expect(await h.db.outcomes.count()).toBe(2);
    await choose(h, [], []);
    await h.engine.runOnce();
    expect(await ids(h, 'participants')).toEqual(idsOf(participants.filter((_, i) => i % 3 !== 1)));
    expect(await h.db.outcomes.count()).toBe(4);
  });

  it('an intake without an enrollment stays on the tablet that made it, until it is enrolled elsewhere', async () => {
    const { h, cohorts } = world();
    await h.engine.start();
    await h.settle();
    const intake = await createParticipant(h.data, { first_name: 'Walk', last_name: 'In' });
    await h.advance(2_000);
    await h.engine.runOnce();
    await h.engine.runOnce();
    const onServer = h.transport.server.rows('Participant').find((r) => r.first_name === 'Walk')!;
    expect(onServer).toBeTruthy();
    expect(await h.db.participants.get(onServer.id)).toMatchObject({ first_name: 'Walk' });
    // Enrolled at a site this tablet does not hold (another device): it follows that cohort now.
    h.transport.server.create('Enrollment', { participant_id: onServer.id, cohort_id: cohorts[1].id, enrollment_status: 'active' });
    await h.engine.runOnce();
    await h.engine.runOnce();
    expect(await h.db.participants.get(onServer.id)).toBeUndefined();
    expect(intake.id.startsWith('local-')).toBe(true);
  });

  it('an intake enrolled on this tablet into one of its cohorts stays, with its enrollment', async () => {
    const { h, cohorts } = world();
    await h.engine.start();
    await h.settle();
    const intake = await createParticipant(h.data, { first_name: 'Walk', last_name: 'In' });
    await enrollParticipant(h.data, { participant_id: intake.id, cohort_id: cohorts[0].id, intake_date: '2026-01-15' });
    await h.advance(2_000);
    await h.engine.runOnce();
    await h.engine.runOnce();
    const onServer = h.transport.server.rows('Participant').find((r) => r.first_name === 'Walk')!;
    expect(await h.db.participants.get(onServer.id)).toMatchObject({ first_name: 'Walk' });
    expect(await h.db.enrollments.where('participant_id').equals(onServer.id).count()).toBe(1);
  });

  it('a participant opened from beyond the scope stays while its pin lasts, with its enrollments and outcomes, then leaves', async () => {
    const { h, participants } = world();
    await h.engine.start();
    await h.settle();
    const beyond = participants[1]; // cohort 1, site 1
    // keepOnTablet pins for OPENED_TTL_MS (a day); here the pin ends in 90 s.
    expect(OPENED_TTL_MS).toBe(24 * 60 * 60 * 1000);
    await h.db.pins.put({ entity: 'Participant', id: beyond.id, reason: 'opened', until: h.clock.now() + 90_000 });
    await h.engine.runOnce();
    expect(await h.db.participants.get(beyond.id)).toMatchObject({ first_name: 'P1' });
    expect(await h.db.enrollments.where('participant_id').equals(beyond.id).count()).toBe(1);
    expect(await h.db.outcomes.where('participant_id').equals(beyond.id).count()).toBe(1);
    // Its cohort's other participants do not come with it.
    expect(await h.db.participants.get(participants[4].id)).toBeUndefined();
    await h.advance(60_000); // the periodic cycle: still pinned
    expect(await h.db.participants.get(beyond.id)).toBeDefined();
    await h.advance(60_000); // the next one: the pin has lapsed
    expect(await h.db.participants.get(beyond.id)).toBeUndefined();
    expect(await h.db.enrollments.where('participant_id').equals(beyond.id).count()).toBe(0);
    expect(await h.db.outcomes.where('participant_id').equals(beyond.id).count()).toBe(0);
    expect(await h.db.pins.count()).toBe(0);
  });

  it('deletions inside the scope reach the tablet (S6); a row that only moved out of the scope is not taken for deleted', async () => {
    const { h, participants, sites } = world();
    const neighbour = h.transport.server.create('Cohort', { cohort_code: 'N0', site_id: sites[0].id, lead_coach_email: 'other@example.org' });
    await h.engine.start();
    await h.settle();
    expect(await h.db.cohorts.get(neighbour.id)).toBeDefined();
    h.transport.server.remove('Participant', participants[0].id);
    // Another coach's cohort at site 0 moves to site 1, which this tablet does not hold.
    h.transport.server.update('Cohort', neighbour.id, { site_id: sites[1].id });
    await h.advance(11 * 60_000);
    await h.engine.runOnce();
    expect(await h.db.participants.get(participants[0].id)).toBeUndefined();
    expect(await h.db.cohorts.get(neighbour.id)).toBeUndefined();
    expect(await h.db.conflicts.count()).toBe(0);
  });

  it('scope filters are chunked to stay under the URL limit, and every row still arrives once', async () => {
    const h = makeHarness({ scope: { email: COACH, everySite: false } });
    const s = h.transport.server;
    const site = s.create('Site', { site_name: 'Big' });
    s.create('User', { email: COACH });
    const cohort = s.create('Cohort', { cohort_code: 'BIG', site_id: site.id, lead_coach_email: COACH });
    const people = Array.from({ length: 900 }, (_, i) => s.create('Participant', { first_name: `P${i}` }));
    for (const p of people) s.create('Enrollment', { participant_id: p.id, cohort_id: cohort.id, enrollment_status: 'active' });
    await h.engine.start();
    await h.settle();
    expect(await h.db.participants.count()).toBe(900);
    const reads = h.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date');
    expect(reads.length).toBeGreaterThan(1);
    for (const r of reads) expect(encodeURIComponent(JSON.stringify(r.args[0])).length).toBeLessThan(16_000);
  });
});
