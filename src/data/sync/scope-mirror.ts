import type { PassageDB } from '../db';
import type { EntityName } from '../../../shared/entities';
import { TABLE_OF } from '../db';
import { isTempId } from './references';
import { flatKeys, scopeKeys, SCOPED_ORDER, type PinRow, type ScopeFacts, type TabletScope } from './scope';

/**
 * Issue #22: the mirror's side of the scope — what it holds that decides each entity's keys, and
 * the rows that leave when the scope shrinks. Only clear, indexed fields are read (ids, site_id,
 * cohort_id, participant_id): a tablet leaving 10,000 participants opens none of them.
 */

/** Live pins with their ids resolved through aliases (S2: a pin taken on a temporary id). */
export async function livePins(db: PassageDB, now: number): Promise<PinRow[]> {
  const pins = (await db.pins.toArray()).filter((p) => p.until === null || p.until > now);
  const aliases = await db.aliases.bulkGet(pins.map((p) => p.id));
  return pins.map((p, i) => (aliases[i] ? { ...p, id: aliases[i]!.server_id } : p));
}

/** Key → primary key pairs of an index, without reading (or unsealing) any row. */
async function indexPairs(db: PassageDB, entity: EntityName, index: string): Promise<Array<{ key: string; id: string }>> {
  const pairs: Array<{ key: string; id: string }> = [];
  await db
    .table(TABLE_OF[entity])
    .orderBy(index)
    .eachKey((key, cursor) => {
      pairs.push({ key: key as string, id: cursor.primaryKey as string });
    });
  return pairs;
}

export async function readScopeFacts(db: PassageDB, scope: TabletScope, now: number): Promise<ScopeFacts> {
  const [cohortSites, enrollmentParticipants, enrollmentCohorts, participantIds, pins] = await Promise.all([
    indexPairs(db, 'Cohort', 'site_id'),
    indexPairs(db, 'Enrollment', 'participant_id'),
    indexPairs(db, 'Enrollment', 'cohort_id'),
    db.participants.toCollection().primaryKeys() as Promise<string[]>,
    livePins(db, now),
  ]);
  const cohortOf = new Map(enrollmentCohorts.map((p) => [p.id, p.key]));
  return {
    siteIds: scope.siteIds,
    cohorts: cohortSites.map((p) => ({ id: p.id, site_id: p.key })),
    enrollments: enrollmentParticipants.map((p) => ({ id: p.id, participant_id: p.key, cohort_id: cohortOf.get(p.id) ?? null })),
    participantIds,
    pins,
  };
}

/** Records that must stay whatever the scope: queued changes (any state) and open conflicts. */
async function heldIds(db: PassageDB): Promise<Map<EntityName, Set<string>>> {
  const held = new Map<EntityName, Set<string>>();
  const add = (entity: EntityName, id: string) => held.set(entity, (held.get(entity) ?? new Set()).add(id));
  await db.outbox.orderBy('[entity+record_id]').eachKey((key) => {
    const [entity, id] = key as [EntityName, string];
    add(entity, id);
  });
  for (const c of await db.conflicts.where('status').equals('open').toArray()) add(c.entity, c.record_id);
  return held;
}

/**
 * Rows beyond the scope leave the tablet (issue #22.3), in dependency order so each level keeps
 * what the level before kept: cohorts of the scope's sites (and pinned ones) → their sessions and
 * enrollments (and a pinned participant's) → the participants of kept enrollments (and pinned) →
 * their outcomes. A row with queued changes or an open conflict stays until they are sent or
 * settled; temporary ids are queued creates. Lapsed pins go; an 'own' pin goes once its
 * participant has an enrollment (it then follows that enrollment's cohort). A key whose rows
 * left is no longer covered by its entity's cursor (forgetLeftKeys). One transaction. With every
 * site held nothing leaves but lapsed pins.
 */
export async function evictBeyondScope(db: PassageDB, scope: TabletScope, now: number): Promise<number> {
  return db.transaction('rw', db.tables, async () => {
    const pins = await db.pins.toArray();
    const lapsed = pins.filter((p) => p.until !== null && p.until <= now);
    if (lapsed.length) await db.pins.bulkDelete(lapsed.map((p) => [p.entity, p.id, p.reason] as [string, string, string]));
    if (scope.all) return 0;

    const facts = await readScopeFacts(db, scope, now);
    const enrolled = new Set(facts.enrollments.map((e) => e.participant_id));
    const settled = facts.pins.filter((p) => p.reason === 'own' && p.entity === 'Participant' && enrolled.has(p.id));
    if (settled.length) {
      const raw = (await db.pins.toArray()).filter((p) => p.reason === 'own' && p.entity === 'Participant');
      const aliases = await db.aliases.bulkGet(raw.map((p) => p.id));
      const gone = new Set(settled.map((p) => p.id));
      const drop = raw.filter((p, i) => gone.has(aliases[i]?.server_id ?? p.id));
      await db.pins.bulkDelete(drop.map((p) => [p.entity, p.id, p.reason] as [string, string, string]));
    }
    const pinned = (entity: EntityName) => new Set(facts.pins.filter((p) => p.entity === entity && !settled.includes(p)).map((p) => p.id));
    const held = await heldIds(db);
    const stays = (entity: EntityName, id: string) => isTempId(id) || (held.get(entity)?.has(id) ?? false);
    let removed = 0;
    const remove = async (entity: EntityName, ids: string[]) => {
      if (ids.length === 0) return;
      await db.table(TABLE_OF[entity]).bulkDelete(ids);
      removed += ids.length;
    };

    const sites = new Set(scope.siteIds);
    const pinnedCohorts = pinned('Cohort');
    const siteCohorts = new Set(facts.cohorts.filter((c) => c.site_id != null && sites.has(c.site_id)).map((c) => c.id));
    const leavingCohorts = new Set(facts.cohorts.filter((c) => !siteCohorts.has(c.id) && !pinnedCohorts.has(c.id) && !stays('Cohort', c.id)).map((c) => c.id));
    await remove('Cohort', [...leavingCohorts]);
    for (const c of facts.cohorts) if (stays('Cohort', c.id)) siteCohorts.add(c.id); // its own sessions and enrollments stay with it

    const sessions = await indexPairs(db, 'Session', 'cohort_id');
    await remove('Session', sessions.filter((s) => !siteCohorts.has(s.key) && !stays('Session', s.id)).map((s) => s.id));

    const pinnedParticipants = pinned('Participant');
    const keptEnrollments = facts.enrollments.filter(
      (e) => (e.cohort_id != null && siteCohorts.has(e.cohort_id)) || (e.participant_id != null && pinnedParticipants.has(e.participant_id)) || stays('Enrollment', e.id),
    );
    const keptIds = new Set(keptEnrollments.map((e) => e.id));
    await remove('Enrollment', facts.enrollments.filter((e) => !keptIds.has(e.id)).map((e) => e.id));

    const keptParticipants = new Set([...keptEnrollments.map((e) => e.participant_id!), ...pinnedParticipants]);
    const leaving = facts.participantIds.filter((id) => !keptParticipants.has(id) && !stays('Participant', id));
    await remove('Participant', leaving);
    const left = new Set(leaving);
    const remaining = new Set(facts.participantIds.filter((id) => !left.has(id)));

    const outcomes = await indexPairs(db, 'Outcome', 'participant_id');
    await remove('Outcome', outcomes.filter((o) => !remaining.has(o.key) && !stays('Outcome', o.id)).map((o) => o.id));

    // Issue #23: attendance follows its cohort, and a pinned participant keeps their own.
    const byCohort = await indexPairs(db, 'Attendance', 'cohort_id');
    const byParticipant = new Map((await indexPairs(db, 'Attendance', 'participant_id')).map((a) => [a.id, a.key]));
    await remove(
      'Attendance',
      byCohort
        .filter((a) => !siteCohorts.has(a.key) && !pinnedParticipants.has(byParticipant.get(a.id) ?? '') && !stays('Attendance', a.id))
        .map((a) => a.id),
    );

    await forgetLeftKeys(db, {
      siteIds: scope.siteIds,
      cohorts: facts.cohorts.filter((c) => !leavingCohorts.has(c.id)),
      enrollments: keptEnrollments,
      participantIds: [...remaining],
      pins: facts.pins.filter((p) => !settled.includes(p)),
    });
    return removed;
  });
}

/**
 * S15: a scoped cursor covers the keys recorded with it (syncState.scope_keys); a key whose rows
 * have just left the tablet is covered no more. Were it kept, a key that comes back (a participant
 * pinned again by an edit after their enrollment elsewhere left) would be pulled from the cursor
 * on, and rows last changed before it (that enrollment) would never arrive again. Dropped here,
 * the key counts as new when it returns and is pulled from the start. `after`: the mirror's facts
 * once the eviction is done.
 */
async function forgetLeftKeys(db: PassageDB, after: ScopeFacts): Promise<void> {
  for (const entity of SCOPED_ORDER) {
    const state = await db.syncState.get(entity);
    if (state?.scope_keys == null) continue;
    const still = new Set(flatKeys(scopeKeys(entity, after)));
    const kept = state.scope_keys.filter((k) => still.has(k));
    if (kept.length < state.scope_keys.length) await db.syncState.put({ ...state, scope_keys: kept });
  }
}
