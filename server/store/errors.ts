/**
 * What the store refuses, in its own terms: the store knows nothing of HTTP. The HTTP layer maps a
 * StoreError once (server/errors.ts `toHttpError`, called by app.onError): invalid → 400
 * BAD_REQUEST, not_found → 404 NOT_FOUND, conflict → 409 CONFLICT, timeout → 503 QUERY_TIMEOUT.
 */
export type StoreErrorKind = 'invalid' | 'not_found' | 'conflict' | 'timeout';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    /** A more precise code than the kind's default (e.g. INVALID_QUERY for a refused pattern). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** The caller's input cannot be stored or queried (bad filter, field name, value, limit). */
export const badRequest = (message: string, code?: string) => new StoreError('invalid', message, code);
export const notFound = (message: string) => new StoreError('not_found', message);
export const conflict = (message: string) => new StoreError('conflict', message);
/** A statement ran past the statement timeout: the server is fine, this request was too heavy. */
export const timedOut = (message: string) => new StoreError('timeout', message);
