/**
 * S8: what a failed request means for the op that made it. Pure; the switch over statuses lives
 * here once, so push, pull and reconcile agree.
 */
export type ErrorClass =
  /** No answer: offline, DNS, refused. The request may have been applied. */
  | { kind: 'offline'; message: string }
  /**
   * Our 30 s timeout on ONE request: its outcome is unknown (S3) and that op backs off, but it says
   * nothing about the connection (one slow request on a facility network is not "offline").
   */
  | { kind: 'timeout'; message: string }
  /** 5xx, 408, or a thrown bug: try again later. The request may have been applied. */
  | { kind: 'retry'; message: string; retryAfterMs?: number; status?: number }
  /** 429: the server asks everyone to slow down; pause the whole queue. */
  | { kind: 'throttle'; message: string; retryAfterMs?: number }
  /** 401: the sign-in expired; pause everything, keep the queue. */
  | { kind: 'auth'; message: string }
  /** Other 4xx: the server refused this op; a person decides (retry, edit, discard). */
  | { kind: 'reject'; message: string; status: number; code?: string; duplicateIds?: string[] };

interface ErrorLike {
  message?: string;
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
  /** The answer's body (PlatformError.data). */
  data?: unknown;
}

/**
 * Issue #23.7: the records a 409 POSSIBLE_DUPLICATE names (`extra_data.duplicate_ids`), so the Sync
 * page can offer to open them or mark them as another person. Ids only: no personal data.
 */
function duplicateIdsOf(data: unknown): string[] | undefined {
  const ids = (data as { extra_data?: { duplicate_ids?: unknown } } | null)?.extra_data?.duplicate_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
}

export function classifyError(error: unknown): ErrorClass {
  const e = (error ?? {}) as ErrorLike;
  const message = String(e.message || 'Unknown error');
  const retryAfterMs = typeof e.retryAfterSeconds === 'number' ? e.retryAfterSeconds * 1000 : undefined;
  const status = e.status;
  // A thrown error with no status at all that is not a transport failure is a bug in our own code
  // or data; retrying later (with backoff) keeps the op instead of dropping it.
  if (status === undefined) {
    if (e.code === 'TIMEOUT' || (error instanceof Error && error.name === 'TimeoutError')) return { kind: 'timeout', message };
    return e.code === undefined && !(error instanceof Error && /fetch|network|abort|timeout/i.test(message))
      ? { kind: 'retry', message }
      : { kind: 'offline', message };
  }
  if (status === 401) return { kind: 'auth', message };
  if (status === 429) return { kind: 'throttle', message, retryAfterMs };
  if (status === 408 || status >= 500) return { kind: 'retry', message, retryAfterMs, status };
  if (status >= 400) {
    const duplicateIds = duplicateIdsOf(e.data);
    return duplicateIds ? { kind: 'reject', message, status, code: e.code, duplicateIds } : { kind: 'reject', message, status, code: e.code };
  }
  // 1xx/2xx/3xx thrown as errors should not happen; treat as transient.
  return { kind: 'retry', message, status };
}

/**
 * Whether a pull or reconcile result ends the cycle: 'reject' (this user may not read that entity)
 * and 'timeout' (one slow request, not the connection) only skip that entity until the next cycle.
 */
export function stopsCycle(result: ErrorClass | null): result is ErrorClass {
  return result !== null && result.kind !== 'reject' && result.kind !== 'timeout';
}
