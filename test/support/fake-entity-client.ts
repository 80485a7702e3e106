import type { EntityApi, PlatformClientLike, Row } from '../../src/data/platform-like';

/**
 * A small in-memory platform client for the online-only data calls (issue #22.2): `get` and
 * `filter` over rows per entity, with the filter operators the beyond-scope search uses
 * (equality, `$in`, `$regex` + `$options`, `$and`, `$or`), `-field` sorts and limits. Every call
 * is recorded; `offline` makes each call fail as the platform client does with no answer.
 */
export interface FakeCall {
  entity: string;
  method: 'get' | 'filter';
  args: unknown[];
}

export interface FakeEntityClient extends PlatformClientLike {
  rows: Record<string, Row[]>;
  calls: FakeCall[];
  offline: boolean;
  /** When set, every call waits for it first (a slow server). */
  gate: Promise<void> | null;
}

function matches(row: Row, q: Record<string, unknown>): boolean {
  return Object.entries(q).every(([key, cond]) => {
    if (key === '$and') return (cond as Record<string, unknown>[]).every((sub) => matches(row, sub));
    if (key === '$or') return (cond as Record<string, unknown>[]).some((sub) => matches(row, sub));
    const value = row[key];
    if (cond && typeof cond === 'object' && !Array.isArray(cond)) {
      const ops = cond as Record<string, unknown>;
      if ('$in' in ops) return (ops.$in as unknown[]).includes(value);
      if ('$regex' in ops) return typeof value === 'string' && new RegExp(ops.$regex as string, (ops.$options as string) ?? '').test(value);
      throw new Error(`fake client: unsupported condition ${JSON.stringify(cond)}`);
    }
    return value === cond;
  });
}

export function fakeEntityClient(rows: Record<string, Row[]> = {}): FakeEntityClient {
  const client: FakeEntityClient = {
    rows,
    calls: [],
    offline: false,
    gate: null,
    entities(entity: string): EntityApi {
      const answer = async <T>(method: FakeCall['method'], args: unknown[], compute: () => T): Promise<T> => {
        client.calls.push({ entity, method, args });
        if (client.gate) await client.gate;
        if (client.offline) throw Object.assign(new Error('Failed to fetch'), { status: undefined });
        return structuredClone(compute());
      };
      const table = () => client.rows[entity] ?? [];
      const unsupported = () => Promise.reject(new Error('fake client: not supported'));
      return {
        get: (id: string) =>
          answer('get', [id], () => {
            const row = table().find((r) => r.id === id);
            if (!row) throw Object.assign(new Error('Not found'), { status: 404 });
            return row;
          }),
        filter: (q: Record<string, unknown>, sort?: string, limit?: number) =>
          answer('filter', [q, sort, limit], () => {
            let out = table().filter((r) => matches(r, q));
            if (sort) {
              const desc = sort.startsWith('-');
              const field = desc ? sort.slice(1) : sort;
              out = [...out].sort((a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')) * (desc ? -1 : 1));
            }
            return limit ? out.slice(0, limit) : out;
          }),
        list: unsupported,
        create: unsupported,
        update: unsupported,
        delete: unsupported,
        bulkCreate: unsupported,
        bulkUpdate: unsupported,
      };
    },
    auth: { me: async () => ({ id: 'x' }), updateMe: async () => ({ id: 'x' }) },
  };
  return client;
}
