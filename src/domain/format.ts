import { format, isValid, parseISO } from 'date-fns';

/**
 * Display formats of spec section 9. Date-only strings ('2025-01-05') are read as local dates:
 * `new Date('2025-01-05')` would be UTC midnight and show as Jan 4 west of Greenwich.
 */
export function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = parseISO(value);
  return isValid(d) ? d : null;
}

/** 'MMM d, yyyy' (Jan 5, 2025), or the fallback when empty or unparseable. */
export function formatDate(value: string | null | undefined, fallback = ''): string {
  const d = toDate(value);
  return d ? format(d, 'MMM d, yyyy') : fallback;
}

/** 'MMM d, h:mm a' (Jan 5, 2:30 PM). */
export function formatDateTime(value: string | null | undefined, fallback = ''): string {
  const d = toDate(value);
  return d ? format(d, 'MMM d, h:mm a') : fallback;
}

/** Today as YYYY-MM-DD in local time (intake dates, approval_date, requested_access_date). */
export function todayISO(now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd');
}

/** 'in-custody' → 'in custody', 'fire_camp' → 'fire camp'. */
export function humanize(value: string | null | undefined): string {
  return (value ?? '').replace(/[-_]/g, ' ');
}
