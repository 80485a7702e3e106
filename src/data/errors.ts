/** Errors the data layer throws to screens; each carries a message a person can act on. */

export class OfflineError extends Error {
  override readonly name = 'OfflineError';
  constructor(message = 'You are offline. Approvals need a connection.') {
    super(message);
  }
}

/** S12: the browser refused to store more. The change was not saved (nothing half-written). */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  constructor(message = 'This device is out of storage space, so the change was not saved. Free up space, then try again.') {
    super(message);
  }
}

export class RecordNotFoundError extends Error {
  override readonly name = 'RecordNotFoundError';
  constructor(entity: string, id: string) {
    super(`${entity} ${id} was not found on this device.`);
  }
}

/**
 * Issue #12.4: a program or site that cohorts on this device still use is not deleted (the server
 * refuses it too, 409 IN_USE); deleting it would leave those cohorts showing 'Unknown program'.
 * Issue #23: nor is a session with attendance (`count` is then its attendance records).
 */
export class InUseError extends Error {
  override readonly name = 'InUseError';
  constructor(
    readonly noun: 'program' | 'site' | 'session',
    readonly cohortCount: number,
  ) {
    super(
      noun === 'session'
        ? `Attendance was taken at this session (${cohortCount === 1 ? '1 record' : `${cohortCount} records`}). A session with attendance cannot be deleted.`
        : `${cohortCount === 1 ? '1 cohort uses' : `${cohortCount} cohorts use`} this ${noun}.`,
    );
  }
}

/**
 * A write refused before it started, for a reason the person can act on (pick a participant, wait
 * for the first sync, sign in again). Nothing was changed.
 */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}

/** Dexie wraps the DOMException; its name or its inner error's name says quota. */
export function isQuotaError(error: unknown): boolean {
  const e = error as { name?: string; inner?: { name?: string } } | null;
  return e?.name === 'QuotaExceededError' || e?.inner?.name === 'QuotaExceededError';
}

/** Run a write; turn a quota failure into StorageFullError so no caller mistakes it for success. */
export async function guardQuota<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError();
    throw error;
  }
}
