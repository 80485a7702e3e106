import type { Transport } from './transport';

/**
 * `entities(name)` of platform-contract.md 2. Falsy params are dropped as the SDK drops them
 * (`limit=0`, `skip=0`, empty sort), `q` is JSON, and `fields` is comma-joined (an empty array is
 * still sent, as `fields=`).
 */
export type Query = Record<string, unknown>;
export type Fields = string[] | string;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface ListV2Options {
  q?: Query;
  sort?: string;
  /** Always sent; 100 when omitted, as the SDK does. */
  limit?: number;
  cursor?: string | null;
  fields?: Fields;
}

/**
 * Passage's own additions to a write (issue #26): extra headers, e.g. the edit times of queued
 * changes. The SDK has no such argument; a plain platform ignores headers it does not know.
 */
export interface WriteOptions {
  headers?: Record<string, string>;
}

export interface EntityClient<T = Record<string, unknown>> {
  list(sort?: string, limit?: number, skip?: number, fields?: Fields): Promise<T[]>;
  filter(q: Query, sort?: string, limit?: number, skip?: number, fields?: Fields): Promise<T[]>;
  get(id: string): Promise<T>;
  create(data: Partial<T>, options?: WriteOptions): Promise<T>;
  update(id: string, data: Partial<T>, options?: WriteOptions): Promise<T>;
  delete(id: string, options?: WriteOptions): Promise<{ success: boolean }>;
  bulkCreate(records: Partial<T>[], options?: WriteOptions): Promise<T[]>;
  bulkUpdate(records: (Partial<T> & { id: string })[], options?: WriteOptions): Promise<T[]>;
  count(q?: Query): Promise<number>;
  listV2(options?: ListV2Options): Promise<Page<T>>;
}

function joinFields(fields: Fields | undefined): string | undefined {
  if (fields === undefined || fields === null) return undefined;
  return Array.isArray(fields) ? fields.join(',') : fields;
}

function listParams(sort?: string, limit?: number, skip?: number, fields?: Fields) {
  return {
    sort: sort || undefined,
    limit: limit || undefined,
    skip: skip || undefined,
    fields: joinFields(fields),
  };
}

export function createEntityClient<T>(request: Transport, appId: string, name: string): EntityClient<T> {
  // Neither the entity name nor the id is URL-encoded by the SDK; ids here are server-issued.
  const base = `/apps/${appId}/entities/${name}`;
  return {
    list: (sort, limit, skip, fields) =>
      request({ method: 'GET', path: base, query: listParams(sort, limit, skip, fields) }),
    filter: (q, sort, limit, skip, fields) =>
      request({ method: 'GET', path: base, query: { q: JSON.stringify(q), ...listParams(sort, limit, skip, fields) } }),
    get: (id) => request({ method: 'GET', path: `${base}/${id}` }),
    create: (data, options) => request({ method: 'POST', path: base, body: data, headers: options?.headers }),
    update: (id, data, options) => request({ method: 'PUT', path: `${base}/${id}`, body: data, headers: options?.headers }),
    delete: (id, options) => request({ method: 'DELETE', path: `${base}/${id}`, headers: options?.headers }),
    bulkCreate: (records, options) => request({ method: 'POST', path: `${base}/bulk`, body: records, headers: options?.headers }),
    bulkUpdate: (records, options) => request({ method: 'PUT', path: `${base}/bulk`, body: records, headers: options?.headers }),
    count: async (q) => {
      const res = await request<{ count: number }>({
        method: 'GET',
        path: `${base}/count`,
        query: { q: q ? JSON.stringify(q) : undefined },
      });
      return res.count;
    },
    listV2: (options = {}) =>
      request({
        method: 'GET',
        path: `${base}/v2/list`,
        query: {
          q: options.q ? JSON.stringify(options.q) : undefined,
          limit: options.limit ?? 100,
          cursor: options.cursor || undefined,
          sort: options.sort || undefined,
          fields: joinFields(options.fields),
        },
      }),
  };
}
