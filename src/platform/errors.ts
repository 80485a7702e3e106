/**
 * The one error type the platform client throws (platform-contract.md 1.5). The UI and the sync
 * engine decide what to do with it; the client never toasts or redirects.
 *
 * - `status` is the HTTP status, or `undefined` when the request never got an answer (offline,
 *   DNS, refused connection, timeout). Offline start and sync backoff key off that.
 * - `code` is `data.error.code ?? data.code ?? x-base44-connector-error`; for answer-less failures
 *   it is 'TIMEOUT' (our 30 s abort) or 'NETWORK_ERROR'.
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly data: unknown;
  /** Seconds from a Retry-After header (429/503), so the sync backoff can honour it (design S8). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    init: { status?: number; code?: string; data?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** True when no HTTP answer arrived: the device is offline or the server unreachable. */
  get isTransport(): boolean {
    return this.status === undefined;
  }

  toJSON() {
    return { name: this.name, message: this.message, status: this.status, code: this.code, data: this.data };
  }
}

type ErrorBody = {
  error?: { message?: unknown; code?: unknown };
  message?: unknown;
  detail?: unknown;
  code?: unknown;
} | null;

function asBody(data: unknown): ErrorBody {
  return data && typeof data === 'object' ? (data as ErrorBody) : null;
}

/** The message rule of the SDK: first truthy of error.message, message, detail, then the transport text. */
export function errorMessageFrom(data: unknown, fallback: string): string {
  const body = asBody(data);
  // A FastAPI-style 422 `detail` list becomes "[object Object]" in the SDK; String() keeps that.
  const picked = body?.error?.message || body?.message || body?.detail || fallback;
  return String(picked);
}

export function errorCodeFrom(data: unknown, connectorHeader: string | null): string | undefined {
  const body = asBody(data);
  const code = body?.error?.code ?? body?.code ?? connectorHeader ?? undefined;
  return code == null ? undefined : String(code);
}

/** Retry-After is either delta-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
