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

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, code, message);
export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, 'FORBIDDEN', message);
export const unprocessable = (message: string, field?: string) =>
  new HttpError(422, 'VALIDATION_ERROR', message, field ? { field } : undefined);
