import { format } from 'date-fns';

/** When an op was made, as 'Nov 22, 2:30 PM' (the spec's date-time format, section 9). */
export function opTime(epochMs: number): string {
  return format(new Date(epochMs), 'MMM d, h:mm a');
}
