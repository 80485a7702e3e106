import { CheckCircle2, XCircle } from 'lucide-react';

/** The active/inactive mark of program and site cards, with a text alternative for screen readers. */
export function ActiveIcon({ active }: { active: boolean | null | undefined }) {
  return active ? (
    <CheckCircle2 role="img" aria-label="Active" className="h-5 w-5 shrink-0 text-emerald-600" />
  ) : (
    <XCircle role="img" aria-label="Inactive" className="h-5 w-5 shrink-0 text-slate-400" />
  );
}
