import type { DataContext } from '../context';
import type { EntityName } from '../../../shared/entities';

/** A row with a React key that survives the server assigning its id (S2). */
export interface Keyed<T> {
  key: string;
  row: T;
}

/**
 * Key each row by the temporary id it was created under when it has one (its S2 alias), else by
 * its id. A list keyed by `row.id` remounts a card when `local-…` becomes the server's id — an
 * admin who clicked Edit a second after creating a program would lose what they typed (issue #9.9).
 * Call inside the same live query that read the rows: the id swap and its alias are written in
 * one transaction, so rows and keys always agree.
 */
export async function keyByAlias<T extends { id: string }>({ db }: DataContext, entity: EntityName, rows: T[]): Promise<Keyed<T>[]> {
  const aliases = await db.aliases.where('server_id').anyOf(rows.map((r) => r.id)).toArray();
  const tempIdOf = new Map(aliases.filter((a) => a.entity === entity).map((a) => [a.server_id, a.temp_id]));
  return rows.map((row) => ({ key: tempIdOf.get(row.id) ?? row.id, row }));
}
