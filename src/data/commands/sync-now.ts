/**
 * The "Sync now" button (S9). In a tab that is not the leader, the runtime forwards it. Its own
 * module: the header imports it on every page, and the Sync page's write path (sync-ops.ts) is not
 * part of the first page's JavaScript (issue #11.6).
 */
import type { DataContext } from '../context';

export function syncNow(ctx: DataContext): void {
  ctx.sync?.syncNow();
}
