import clsx from 'clsx';
import type { ReactNode } from 'react';

export type BadgeTone = 'slate' | 'blue' | 'green' | 'amber' | 'red' | 'violet';

const TONES: Record<BadgeTone, string> = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-300',
  blue: 'bg-blue-50 text-blue-800 ring-blue-300',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-300',
  amber: 'bg-amber-50 text-amber-900 ring-amber-300',
  red: 'bg-red-50 text-red-800 ring-red-300',
  violet: 'bg-violet-50 text-violet-800 ring-violet-300',
};

export function Badge({ tone = 'slate', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={clsx('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', TONES[tone], className)}>
      {children}
    </span>
  );
}

/** Tones for the statuses the product shows (enrollment, cohort, program status, access). */
export function statusTone(status: string | null | undefined): BadgeTone {
  switch (status) {
    case 'active':
    case 'approved':
    case 'released':
      return 'green';
    case 'planned':
    case 'waitlist':
    case 'pending':
    case 'on_hold':
      return 'amber';
    case 'completed':
    case 'graduated':
      return 'blue';
    case 'withdrawn':
    case 'rejected':
      return 'red';
    case 'in-custody':
      return 'violet';
    default:
      return 'slate';
  }
}
