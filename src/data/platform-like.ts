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
  /** `options.headers`: issue #26's audit extension (edit times); a plain platform ignores them. */
  create(data: Record<string, unknown>, options?: WriteOptionsLike): Promise<Row>;
  update(id: string, data: Record<string, unknown>, options?: WriteOptionsLike): Promise<Row>;
  delete(id: string, options?: WriteOptionsLike): Promise<unknown>;
  bulkCreate(rows: Record<string, unknown>[], options?: WriteOptionsLike): Promise<Row[]>;
  bulkUpdate(rows: Array<Record<string, unknown> & { id: string }>, options?: WriteOptionsLike): Promise<Row[]>;
  /** `GET /count`; optional so small fakes need not have it (the engine then knows no total). */
  count?(q?: Record<string, unknown>): Promise<number>;
  /** `GET …/v2/list` (cursor pages, issue #26's audit list); optional so small fakes need not have it. */
  listV2?(options?: { q?: Record<string, unknown>; sort?: string; limit?: number; cursor?: string | null; fields?: string[] }): Promise<{
    items: Row[];
    next_cursor: string | null;
    has_more: boolean;
  }>;
}

export interface WriteOptionsLike {
  headers?: Record<string, string>;
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
  /** Issue #24.2: Passage's change stream, read as it arrives (src/platform/events.ts); fakes may not have it. */
  events?: { open(signal: AbortSignal): AsyncIterable<SseMessageLike> };
  /** Every HTTP answer of the client, any request (the real client has it; fakes may not). */
  onAnswer?(listener: (answer: { status: number; ok: boolean }) => void): () => void;
}

/** One message of an event stream (src/platform/sse-parser.ts). */
export type SseMessageLike = { type: 'event'; event: string; data: string } | { type: 'comment'; text: string } | { type: 'retry'; ms: number };

/** What the platform client throws (PlatformError): status undefined = no answer arrived. */
export interface PlatformErrorLike {
  message: string;
  status?: number;
  code?: string;
  data?: unknown;
  retryAfterSeconds?: number;
}
