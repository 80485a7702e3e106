import type { EntityName } from '../../shared/entities';
import type { ExportNotice, Row, SyncTransport, WriteMeta } from '../../src/data/sync/types';
import { MemoryServer } from './memory-server';

/**
 * The engine's network, on command (design "Deterministic networks"): each call can be made to
 * apply and then lose its answer, time out, fail with a status (500, 401, 403, 409, 422, 429 with
 * Retry-After), or be held and answered later in any order.
 */
export type Method = 'create' | 'bulkCreate' | 'update' | 'bulkUpdate' | 'remove' | 'fetchMany' | 'filter' | 'count' | 'reportExport';

export type Fault =
  | { kind: 'drop-response'; status?: number } // applied on the server, the answer lost (or a 5xx from a proxy)
  | { kind: 'timeout' } // never reached the server
  | { kind: 'status'; status: number; message?: string; retryAfterSeconds?: number }
  | { kind: 'hold' }; // answered when the test releases it

export interface Call {
  method: Method;
  entity: EntityName;
  args: unknown[];
  /** Issue #26: what a write told the audit beside its body (edit times, a resolved conflict). */
  meta?: WriteMeta;
}

export class TransportFailure extends Error {
  constructor(message: string, readonly status?: number, readonly code?: string, readonly retryAfterSeconds?: number) {
    super(message);
  }
}

interface Rule {
  method?: Method;
  entity?: EntityName;
  fault: Fault;
  times: number;
  /** Matching calls to let through before this rule applies. */
  skip: number;
}

export class ScriptedTransport implements SyncTransport {
  readonly calls: Call[] = [];
  offline = false;
  private rules: Rule[] = [];
  private held: Array<{ call: Call; release: () => void }> = [];

  constructor(readonly server = new MemoryServer()) {}

  /** The next `times` matching calls get `fault`. */
  failNext(match: { method?: Method; entity?: EntityName; skip?: number }, fault: Fault, times = 1): this {
    this.rules.push({ method: match.method, entity: match.entity, fault, times, skip: match.skip ?? 0 });
    return this;
  }

  heldCalls(): Call[] {
    return this.held.map((h) => h.call);
  }

  /** Answer the held call at `index` (of heldCalls()). */
  release(index: number): void {
    const [h] = this.held.splice(index, 1);
    h.release();
  }

  callsOf(method: Method, entity?: EntityName): Call[] {
    return this.calls.filter((c) => c.method === method && (!entity || c.entity === entity));
  }

  private take(method: Method, entity: EntityName): Fault | null {
    const rule = this.rules.find((r) => (!r.method || r.method === method) && (!r.entity || r.entity === entity));
    if (!rule) return null;
    if (rule.skip > 0) {
      rule.skip--;
      return null;
    }
    if (--rule.times <= 0) this.rules.splice(this.rules.indexOf(rule), 1);
    return rule.fault;
  }

  /** Issue #26: the CSV exports reported to the audit (`reportExport`), in order. */
  readonly exportNotices: ExportNotice[] = [];

  private async run<T>(method: Method, entity: EntityName, args: unknown[], apply: () => T, meta?: WriteMeta): Promise<T> {
    const call: Call = meta ? { method, entity, args, meta } : { method, entity, args };
    this.calls.push(call);
    await Promise.resolve();
    if (this.offline) throw new TransportFailure('Failed to fetch', undefined, 'NETWORK_ERROR');
    const fault = this.take(method, entity);
    if (!fault) return apply();
    switch (fault.kind) {
      case 'drop-response':
        apply();
        if (fault.status) throw new TransportFailure(`HTTP ${fault.status}`, fault.status);
        throw new TransportFailure('The request timed out', undefined, 'TIMEOUT');
      case 'timeout':
        throw new TransportFailure('The request timed out', undefined, 'TIMEOUT');
      case 'status':
        throw new TransportFailure(fault.message ?? `HTTP ${fault.status}`, fault.status, undefined, fault.retryAfterSeconds);
      case 'hold':
        await new Promise<void>((release) => this.held.push({ call, release }));
        return apply();
    }
  }

  create(entity: EntityName, body: Record<string, unknown>, meta?: WriteMeta): Promise<Row> {
    return this.run('create', entity, [body], () => this.server.create(entity, body), meta);
  }

  bulkCreate(entity: EntityName, bodies: Record<string, unknown>[], meta?: WriteMeta): Promise<Row[]> {
    return this.run('bulkCreate', entity, [bodies], () => bodies.map((b) => this.server.create(entity, b)), meta);
  }

  update(entity: EntityName, id: string, data: Record<string, unknown>, meta?: WriteMeta): Promise<Row> {
    return this.run(
      'update',
      entity,
      [id, data],
      () => {
        const row = this.server.update(entity, id, data);
        if (!row) throw new TransportFailure('Not found', 404);
        return row;
      },
      meta,
    );
  }

  bulkUpdate(entity: EntityName, rows: Array<Record<string, unknown> & { id: string }>, meta?: WriteMeta): Promise<Row[]> {
    return this.run(
      'bulkUpdate',
      entity,
      [rows],
      () => {
        // All or nothing, like the server: a missing id fails the whole request.
        if (rows.some((r) => !this.server.get(entity, r.id))) throw new TransportFailure('Not found', 404);
        return rows.map(({ id, ...data }) => this.server.update(entity, id, data)!);
      },
      meta,
    );
  }

  remove(entity: EntityName, id: string, meta?: WriteMeta): Promise<void> {
    return this.run(
      'remove',
      entity,
      [id],
      () => {
        if (!this.server.remove(entity, id)) throw new TransportFailure('Not found', 404);
      },
      meta,
    );
  }

  /** Issue #26: faults apply as to any call (entity 'User' stands for "no entity"). */
  reportExport(notice: ExportNotice): Promise<boolean> {
    return this.run('reportExport', 'User', [notice], () => {
      this.exportNotices.push(notice);
      return true;
    });
  }

  fetchMany(entity: EntityName, ids: string[]): Promise<Row[]> {
    return this.run('fetchMany', entity, [ids], () => ids.map((id) => this.server.get(entity, id)).filter((r): r is Row => !!r));
  }

  filter(entity: EntityName, q: Record<string, unknown>, sort: string, limit: number, skip?: number, fields?: string[]): Promise<Row[]> {
    return this.run('filter', entity, [q, sort, limit, skip, fields], () => this.server.filter(entity, q, sort, limit, skip, fields));
  }

  count(entity: EntityName, q: Record<string, unknown> = {}): Promise<number> {
    return this.run('count', entity, [q], () => this.server.count(entity, q));
  }
}
