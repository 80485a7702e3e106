import { StoreError, type StoreErrorKind } from './store/errors';

/** The server's one error type: thrown anywhere, mapped once to `{message, code}` (plus extra_data). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, 'FORBIDDEN', message);
export const unprocessable = (message: string, field?: string) =>
  new HttpError(422, 'VALIDATION_ERROR', message, field ? { field } : undefined);

const STORE_ERRORS: Record<StoreErrorKind, [status: number, code: string]> = {
  invalid: [400, 'BAD_REQUEST'],
  not_found: [404, 'NOT_FOUND'],
  conflict: [409, 'CONFLICT'],
  timeout: [503, 'QUERY_TIMEOUT'],
  unavailable: [503, 'DATABASE_UNAVAILABLE'],
};

/** Seconds a client waits before retrying after a 503 DATABASE_UNAVAILABLE (the Retry-After header). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The one mapping of the store's errors to HTTP (app.onError); anything else is returned as is. */
export function toHttpError(err: unknown): unknown {
  if (err instanceof StoreError) {
    const [status, code] = STORE_ERRORS[err.kind];
    return new HttpError(status, err.code ?? code, err.message, err.extra);
  }
  return err;
}
