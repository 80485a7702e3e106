import type { EntityName } from '../../shared/entities';
import type { Row } from '../../src/data/sync/types';

/**
 * A tiny in-memory model of the platform's entity API for engine unit tests: ids, strictly
 * increasing updated_date, partial-update merge, and the filter subset the engine uses
 * (equality incl. an array field containing the value, $gte, $gt, $in, $or), sorted with ties by id, skip/limit and field projection.
 */
export class MemoryServer {
  readonly tables = new Map<string, Map<string, Row>>();
  private clock = Date.UTC(2026, 0, 1);
  private nextId = 1;

  private table(entity: string): Map<string, Row> {
    let t = this.tables.get(entity);
    if (!t) this.tables.set(entity, (t = new Map()));
    return t;
  }

  private stamp(): string {
    this.clock += 1;
    return new Date(this.clock).toISOString();
  }

  rows(entity: EntityName): Row[] {
    return [...this.table(entity).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  create(entity: EntityName, body: Record<string, unknown>): Row {
    const now = this.stamp();
    const row: Row = { ...body, id: `srv-${entity.toLowerCase()}-${this.nextId++}`, created_date: now, updated_date: now };
    this.table(entity).set(row.id, row);
    return { ...row };
  }

  update(entity: EntityName, id: string, data: Record<string, unknown>): Row | null {
    const row = this.table(entity).get(id);
    if (!row) return null;
    const next = { ...row, ...data, id, updated_date: this.stamp() };
    this.table(entity).set(id, next);
    return { ...next };
  }

  remove(entity: EntityName, id: string): boolean {
    return this.table(entity).delete(id);
  }

  get(entity: EntityName, id: string): Row | null {
    const row = this.table(entity).get(id);
    return row ? { ...row } : null;
  }

  /**
   * Fields a reader may see of an entity, like the server's coach view of User (id, email,
   * full_name): rows come back without updated_date, though filters and sorts may still use it.
   */
  readonly visible = new Map<EntityName, string[]>();

  count(entity: EntityName, q: Record<string, unknown> = {}): number {
    return [...this.table(entity).values()].filter((r) => matches(r, q)).length;
  }

  filter(entity: EntityName, q: Record<string, unknown>, sort: string, limit: number, skip = 0, fields?: string[]): Row[] {
    const desc = sort.startsWith('-');
    const key = sort.replace(/^[-+]/, '');
    const cmp = (a: Row, b: Row) => {
      const x = String(a[key] ?? ''), y = String(b[key] ?? '');
      const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return desc ? -c : c;
    };
    const rows = [...this.table(entity).values()].filter((r) => matches(r, q)).sort(cmp).slice(skip, skip + limit);
    const visible = this.visible.get(entity);
    const shown = visible ? (fields ?? visible).filter((f) => visible.includes(f)) : fields;
    return rows.map((r) => (shown ? Object.fromEntries(['id', ...shown].map((f) => [f, r[f]])) : { ...r }) as Row);
  }
}

function matches(row: Row, q: Record<string, unknown>): boolean {
  return Object.entries(q).every(([field, cond]) => {
    if (field === '$or') return (cond as Array<Record<string, unknown>>).some((sub) => matches(row, sub));
    const v = row[field];
    if (cond && typeof cond === 'object' && !Array.isArray(cond)) {
      return Object.entries(cond).every(([op, arg]) => {
        switch (op) {
          case '$gte':
            return v != null && String(v) >= String(arg);
          case '$gt':
            return v != null && String(v) > String(arg);
          case '$in':
            return (arg as unknown[]).includes(v);
          default:
            throw new Error(`memory server: unsupported operator ${op}`);
        }
      });
    }
    // Like the platform (MongoDB): a scalar matches an array field that contains it.
    return Array.isArray(v) ? v.includes(cond) : v === cond;
  });
}
