/**
 * Issue #26: CSV exports reported to the server's audit (`auditExport`). A lost notice is a hole
 * in the audit, so each is written to the device first (one meta row, no schema change: meta is a
 * key-value table of every version) and leaves it only once the server answered; offline it
 * waits for the next sync, like a queued change. Only the signed-in user's notices are sent (S11).
 */
import type { PassageDB } from '../db';
import { classifyError, type ErrorClass } from './classify-error';
import type { RunnerContext } from './runner-context';
import type { ExportNotice } from './types';

export const EXPORT_NOTICES_KEY = 'auditExports';

export interface QueuedExportNotice {
  /** Unique per notice: a send and a new export may interleave, so removal is by id. */
  id: string;
  user_id: string;
  notice: ExportNotice;
}

export async function readExportNotices(db: PassageDB): Promise<QueuedExportNotice[]> {
  const row = await db.meta.get(EXPORT_NOTICES_KEY);
  return Array.isArray(row?.value) ? (row.value as QueuedExportNotice[]) : [];
}

/** Adds a notice in one transaction with whatever is already queued. */
export async function queueExportNotice(db: PassageDB, queued: QueuedExportNotice): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const list = await readExportNotices(db);
    await db.meta.put({ key: EXPORT_NOTICES_KEY, value: [...list, queued] });
  });
}

async function forget(db: PassageDB, id: string): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const list = await readExportNotices(db);
    await db.meta.put({ key: EXPORT_NOTICES_KEY, value: list.filter((n) => n.id !== id) });
  });
}

/**
 * Sends this user's waiting notices, oldest first. Returns the failure that stops the queue
 * (offline, 401, 429), else null. A notice leaves the device when the server has it, when the
 * server does not offer the audit (404: nothing to report to), or when it refused it for good (a
 * 4xx: sent again it would be refused again, at every sync, forever). A 5xx or a timeout keeps it.
 */
export async function sendExportNotices(ctx: RunnerContext): Promise<ErrorClass | null> {
  if (!ctx.transport.reportExport) return null;
  const mine = (await readExportNotices(ctx.db)).filter((n) => n.user_id === ctx.userId);
  for (const queued of mine) {
    try {
      await ctx.transport.reportExport(queued.notice);
    } catch (error) {
      const cls = classifyError(error);
      if (cls.kind === 'offline' || cls.kind === 'auth' || cls.kind === 'throttle') return cls;
      if (cls.kind !== 'reject') continue;
    }
    await forget(ctx.db, queued.id);
  }
  return null;
}
