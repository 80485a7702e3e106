/**
 * What the store refuses, in its own terms: the store knows nothing of HTTP. The HTTP layer maps a
 * StoreError once (server/errors.ts `toHttpError`, called by app.onError): invalid → 400
 * BAD_REQUEST, not_found → 404 NOT_FOUND, conflict → 409 CONFLICT, timeout → 503 QUERY_TIMEOUT,
 * unavailable → 503 DATABASE_UNAVAILABLE (with Retry-After).
 */
export type StoreErrorKind = 'invalid' | 'not_found' | 'conflict' | 'timeout' | 'unavailable';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    /** A more precise code than the kind's default (e.g. INVALID_QUERY for a refused pattern). */
    readonly code?: string,
    /** More for the answer's extra_data (e.g. `field` of a unique value already taken). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** The caller's input cannot be stored or queried (bad filter, field name, value, limit). */
export const badRequest = (message: string, code?: string) => new StoreError('invalid', message, code);
export const notFound = (message: string) => new StoreError('not_found', message);
export const conflict = (message: string, code?: string, extra?: Record<string, unknown>) => new StoreError('conflict', message, code, extra);
/** A statement ran past the statement timeout: the server is fine, this request was too heavy. */
export const timedOut = (message: string) => new StoreError('timeout', message);

/** The database cannot be reached (down, restarting, refusing connections): try again shortly. */
export const unavailable = () => new StoreError('unavailable', 'The server cannot reach its database. Try again in a moment.', 'DATABASE_UNAVAILABLE');

/** Node's socket errors when a database server is down, unreachable or drops the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** SQLSTATEs of a server going away or refusing new sessions: admin/crash shutdown, starting up, too many connections. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * True when `err` says the database could not be reached, not that this statement was wrong: a
 * socket error, SQLSTATE class 08 (connection exception) or a server shutting down, or pg's own
 * messages for a connection lost mid-query and a pool that could not connect in time.
 */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof StoreError) return false;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_GONE.has(code) || code.startsWith('08'))) return true;
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/.test(message);
}
