import { Check, Clock, MinusCircle, X, type LucideIcon } from 'lucide-react';
import type { AttendanceStatus } from '../../../shared/entities';

/**
 * How each status looks (issue #23.3): present green, late amber, excused blue-grey, absent red,
 * and never the colour alone — every chip and button carries its word and an icon, so a coach who
 * does not tell red from green, or a grey-scale print, reads the same roster.
 */
export interface StatusLook {
  icon: LucideIcon;
  /** A pressed segmented button and the row's chip once marked. */
  solid: string;
  /** The segmented button not pressed: white with the status's colour as its ring and words. */
  outline: string;
}

export const STATUS_LOOK: Record<AttendanceStatus, StatusLook> = {
  present: {
    icon: Check,
    solid: 'bg-emerald-700 text-white ring-emerald-700',
    outline: 'bg-white text-emerald-800 ring-emerald-300 hover:bg-emerald-50',
  },
  late: {
    icon: Clock,
    solid: 'bg-amber-400 text-amber-950 ring-amber-500',
    outline: 'bg-white text-amber-900 ring-amber-300 hover:bg-amber-50',
  },
  excused: {
    icon: MinusCircle,
    solid: 'bg-slate-600 text-white ring-slate-600',
    outline: 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
  },
  absent: {
    icon: X,
    solid: 'bg-red-700 text-white ring-red-700',
    outline: 'bg-white text-red-800 ring-red-300 hover:bg-red-50',
  },
};

/** The chip of a participant nobody has marked yet. */
export const UNMARKED_LOOK = 'bg-slate-50 text-slate-700 ring-slate-400';
