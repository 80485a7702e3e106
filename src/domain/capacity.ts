/**
 * Cohort capacity (spec 3, 5, 9): an integer or null. Null means unlimited and shows as '∞'.
 */

/** The create form's default capacity (spec 9). */
export const DEFAULT_CAPACITY = 20;
/** The smallest capacity the forms accept (spec 5). */
export const MIN_CAPACITY = 1;

/**
 * Reads a capacity typed into a form. Text that does not parse as a number is saved as null
 * (spec 5, cohort edit); a fractional number is cut to whole seats (capacity is an integer).
 */
export function parseCapacity(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const trimmed = String(text).trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

/** The capacity as shown: the number, or '∞' when there is none. */
export function formatCapacity(capacity: number | null | undefined): string {
  return capacity === null || capacity === undefined ? '∞' : String(capacity);
}

/** A validation message for a capacity, or null when it is acceptable (empty means unlimited). */
export function capacityError(text: string): string | null {
  if (text.trim() === '') return null;
  const n = parseCapacity(text);
  if (n !== null && n < MIN_CAPACITY) return `Capacity must be at least ${MIN_CAPACITY}`;
  return null;
}

/**
 * True when a cohort has no free seat: `activeCount` active enrollments (the CohortDetail reading,
 * spec 4) fill a set capacity. An unlimited cohort (null) is never full. Issue #12.2.
 */
export function isFull(activeCount: number, capacity: number | null | undefined): boolean {
  return capacity !== null && capacity !== undefined && activeCount >= capacity;
}
