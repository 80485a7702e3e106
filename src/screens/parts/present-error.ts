/**
 * The one way a screen says that something failed (issue #27). Every failure names the action that
 * failed — the spec's own text (spec.md 8: 'Failed to add participant', …) or, where the spec has
 * none, the screen's — and, when the data layer or the server said why in words written for people,
 * that reason too: 'This device is out of storage space, so the change was not saved…' (S12),
 * 'You are offline. Approvals need a connection.', '2 cohorts use this program.'. Anything else is a
 * bug or a surprise: the person sees the failure alone, and the console gets the error.
 */
import { InUseError, OfflineError, RecordNotFoundError, RefusedError, StorageFullError, isQuotaError } from '../../data/errors';

export interface PresentedError {
  /** What failed: the action's failure text. */
  title: string;
  /** Why, in words meant for people; absent when the error carries none. */
  reason?: string;
}

/** The data layer's errors whose message is written for the person using the tablet (data/errors.ts). */
const FOR_PEOPLE = [StorageFullError, OfflineError, InUseError, RecordNotFoundError, RefusedError];

/**
 * A refusal the server explained: an HTTP 4xx answer carries `{ message, code }` for people (bad
 * input, a permission, a conflict; docs/design.md "Bad input gets a 4xx"). The platform client's
 * error is duck-typed here, since screens never import platform/; a 5xx is a bug, not a reason.
 */
function serverRefusal(error: unknown): string | undefined {
  const e = error as { status?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object' || typeof e.status !== 'number' || e.status < 400 || e.status >= 500) return undefined;
  return typeof e.message === 'string' && e.message.trim() !== '' ? e.message : undefined;
}

/** The reason to show for `error`, or undefined when it has none meant for people. */
function reasonOf(error: unknown): string | undefined {
  if (FOR_PEOPLE.some((kind) => error instanceof kind)) return (error as Error).message;
  // A quota error that reached a screen unwrapped (guardQuota missed it) still says what it means.
  if (isQuotaError(error)) return new StorageFullError().message;
  return serverRefusal(error);
}

/** What to show for a failed action; logs an error that carries no reason for people. */
export function presentError(error: unknown, failure: string): PresentedError {
  const reason = reasonOf(error);
  if (reason === undefined) {
    console.error(`${failure}:`, error);
    return { title: failure };
  }
  return { title: failure, reason };
}

/** One line for a form or dialog that shows the failure inline: the reason when there is one. */
export function errorLine(presented: PresentedError): string {
  return presented.reason ?? presented.title;
}
