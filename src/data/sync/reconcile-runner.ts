import { TABLE_OF } from '../db';
import type { EntityName } from '../../../shared/entities';
import { classifyError, type ErrorClass } from './classify-error';
import { applyPulledPage, inAllTables, opsOfRecord } from './mirror-writes';
import { keyFilters, type ScopeKey } from './scope';
import type { Row } from './types';
import { isTempId } from './references';
import type { RunnerContext } from './runner-context';

export const VANISHED_MESSAGE = 'This record was deleted on the server.';

/**
 * S6: the API has no tombstones, so now and then list every id (`fields=id`, keyset pages by id;
 * within the tablet's scope keys when it has them, issue #22) and remove local rows the server no longer has. A vanished row with queued edits is kept and
 * becomes a 'vanished' conflict, its edits rejected, so a person decides; a queued delete of it
 * is simply done.
 */
export async function reconcileEntity(ctx: RunnerContext, entity: EntityName, keys: ScopeKey[] | null = null): Promise<ErrorClass | null> {
  const { db, transport, tuning } = ctx;
  const serverIds = new Set<string>();
  for (const base of keys ? keyFilters(keys) : [{}]) {
    let after: string | null = null;
    for (;;) {
      let page;
      try {
        page = await transport.filter(entity, after ? afterId(base, after) : base, 'id', tuning.pageSize, undefined, ['id']);
      } catch (error) {
        return classifyError(error);
      }
      for (const r of page) serverIds.add(r.id);
      if (page.length < tuning.pageSize) break;
      after = page[page.length - 1].id;
    }
  }
  const table = db.table(TABLE_OF[entity]);
  const localIds = (await table.toCollection().primaryKeys()) as string[];
  let gone = localIds.filter((id) => !serverIds.has(id) && !isTempId(id));
  // Within a scope (issue #22), a row missing from the listing may only have moved out of it (a
  // cohort moved to another site) or be kept beyond it (a pin): ask for those rows by id. The
  // ones the server still has are refreshed (the scope's eviction decides whether they stay);
  // only the others were deleted.
  let stillThere: Row[] = [];
  if (keys && gone.length > 0) {
    try {
      stillThere = await transport.fetchMany(entity, gone);
    } catch (error) {
      return classifyError(error);
    }
    const found = new Set(stillThere.map((r) => r.id));
    gone = gone.filter((id) => !found.has(id));
  }
  const now = ctx.clock.now();
  await inAllTables(db, async () => {
    if (stillThere.length) await applyPulledPage(db, entity, stillThere, { allTables: true });
    for (const id of gone) {
      const ops = await opsOfRecord(db, entity, id);
      if (ops.length === 0) {
        await table.delete(id);
        continue;
      }
      // Being re-created on purpose (a 'vanished' conflict resolved as "keep mine").
      if (ops.some((o) => o.kind === 'create')) continue;
      for (const op of ops) {
        if (op.kind === 'delete') await db.outbox.delete(op.seq!);
        else await db.outbox.update(op.seq!, { state: 'rejected', last_error: { status: 404, message: VANISHED_MESSAGE } });
      }
      if (!ops.some((o) => o.kind === 'update')) continue;
      const open = await db.conflicts
        .where('[entity+record_id]')
        .equals([entity, id])
        .filter((c) => c.kind === 'vanished' && c.status === 'open')
        .count();
      if (open === 0) {
        await db.conflicts.add({
          entity,
          record_id: id,
          field: '*',
          local_value: await table.get(id),
          server_value: null,
          server_updated_date: null,
          detected_at: now,
          status: 'open',
          kind: 'vanished',
        });
      }
    }
    const state = (await db.syncState.get(entity)) ?? { entity, cursor: null, last_pulled_at: null, last_reconciled_at: null };
    await db.syncState.put({ ...state, last_reconciled_at: now });
  });
  return null;
}

/** The next keyset page of a listing: ids after `after`, within the base filter (which may itself bound ids). */
function afterId(base: Record<string, unknown>, after: string): Record<string, unknown> {
  const own = base.id;
  if (own && typeof own === 'object' && !Array.isArray(own)) return { ...base, id: { ...(own as Record<string, unknown>), $gt: after } };
  return { ...base, id: { $gt: after } };
}
