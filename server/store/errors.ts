/**
 * What the store refuses, in its own terms: the store knows nothing of HTTP. The HTTP layer maps a
 * StoreError once (server/errors.ts `toHttpError`, called by app.onError): invalid → 400
 * BAD_REQUEST, not_found → 404 NOT_FOUND, conflict → 409 CONFLICT.
 */
export type StoreErrorKind = 'invalid' | 'not_found' | 'conflict';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** The caller's input cannot be stored or queried (bad filter, field name, value, limit). */
export const badRequest = (message: string) => new StoreError('invalid', message);
export const notFound = (message: string) => new StoreError('not_found', message);
export const conflict = (message: string) => new StoreError('conflict', message);
