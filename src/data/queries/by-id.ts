/**
 * Reading a record by an id that may be a temporary one the server has since replaced (S2): the
 * alias the id swap left behind keeps a `local-…` id (an open page, a URL, a queued reference)
 * resolvable. Used by the detail queries of every entity and by the commands.
 */
import Dexie, { type Table } from 'dexie';
import type { DataContext } from '../context';
import { TEMPORARY_ID_PREFIX } from '../../../shared/scope-rules';

/**
 * The server id a temporary id became, or the id itself. Only an id made on this device (`local-…`)
 * can have an alias, so a server id costs no read (an attendance tap resolves two ids).
 */
export function resolvedId({ db }: DataContext, id: string): Promise<string> {
  // Dexie's promises, not an async function's: commands await this inside their transactions, and
  // a native promise there loses the transaction's zone (Dexie's PrematureCommitError).
  if (!id.startsWith(TEMPORARY_ID_PREFIX)) return Dexie.Promise.resolve(id);
  return db.aliases.get(id).then((alias) => alias?.server_id ?? id);
}

/**
 * The row with this id, or — when none has it — the row its temporary id became after sync (S2
 * alias), or null. So a URL with a `local-…` id keeps working after the server assigned an id.
 */
export async function getByIdOrAlias<T>(ctx: DataContext, table: Table<T, string>, id: string): Promise<T | null> {
  if (!id) return null;
  const row = await table.get(id);
  if (row) return row;
  const alias = await ctx.db.aliases.get(id);
  return alias ? ((await table.get(alias.server_id)) ?? null) : null;
}
