/**
 * The part of the platform client (src/platform, "createPlatformClient") the data layer uses,
 * described structurally so this layer does not depend on that module's internals and tests can
 * pass a small fake.
 */
export type Row = Record<string, unknown> & { id: string };

export interface EntityApi {
  list(sort?: string, limit?: number, skip?: number, fields?: string[]): Promise<Row[]>;
  filter(q: Record<string, unknown>, sort?: string, limit?: number, skip?: number, fields?: string[]): Promise<Row[]>;
  get(id: string): Promise<Row>;
  create(data: Record<string, unknown>): Promise<Row>;
  update(id: string, data: Record<string, unknown>): Promise<Row>;
  delete(id: string): Promise<unknown>;
  bulkCreate(rows: Record<string, unknown>[]): Promise<Row[]>;
  bulkUpdate(rows: Array<Record<string, unknown> & { id: string }>): Promise<Row[]>;
  /** `GET /count`; optional so small fakes need not have it (the engine then knows no total). */
  count?(q?: Record<string, unknown>): Promise<number>;
}

export interface PlatformClientLike {
  entities(name: string): EntityApi;
  auth: {
    // The real client returns its typed User; the data layer treats it as a plain row.
    me(): Promise<{ id: string }>;
    updateMe(data: Record<string, unknown>): Promise<{ id: string }>;
  };
  /** Backend functions (`deviceKey`, issue #14.2); optional so small fakes need not have it. */
  functions?: { invoke(name: string, params: Record<string, unknown>): Promise<{ data: unknown }> };
  /** Every HTTP answer of the client, any request (the real client has it; fakes may not). */
  onAnswer?(listener: (answer: { status: number; ok: boolean }) => void): () => void;
}

/** What the platform client throws (PlatformError): status undefined = no answer arrived. */
export interface PlatformErrorLike {
  message: string;
  status?: number;
  code?: string;
  data?: unknown;
  retryAfterSeconds?: number;
}
