import { isValid, parseISO } from 'date-fns';

// Written out rather than date-fns `format`: its formatters and locale are a third of the
// Dashboard's own JavaScript (issue #11.6), and these three patterns are all the pages need here.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

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
  return d ? `${MONTHS[d.getMonth()]} ${d.getDate()}, ${pad(d.getFullYear(), 4)}` : fallback;
}

/** 'MMM d, h:mm a' (Jan 5, 2:30 PM). */
export function formatDateTime(value: string | null | undefined, fallback = ''): string {
  const d = toDate(value);
  if (!d) return fallback;
  const h = d.getHours();
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${h % 12 || 12}:${pad(d.getMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'EEE, MMM d, h:mm a' (Tue, Jan 21, 9:30 AM): a session in the coming week (issue #23.2). */
export function formatWeekdayDateTime(value: string | null | undefined, fallback = ''): string {
  const d = toDate(value);
  return d ? `${WEEKDAYS[d.getDay()]}, ${formatDateTime(value)}` : fallback;
}

/** Today as YYYY-MM-DD in local time (intake dates, approval_date, requested_access_date). */
export function todayISO(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** 'in-custody' → 'in custody', 'fire_camp' → 'fire camp'. */
export function humanize(value: string | null | undefined): string {
  return (value ?? '').replace(/[-_]/g, ' ');
}

/** '1 change', '3 changes': what waits to reach the server (the lock screens, the logout warning, the S11 gate). */
export function changesPhrase(count: number): string {
  return count === 1 ? '1 change' : `${count} changes`;
}
