import { Loader2 } from 'lucide-react';

/** Full-page spinner while start-up runs (or while the browser leaves for the login page). */
export function LoadingScreen({ label = 'Loading Passage…' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center gap-3 text-slate-600">
      <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin text-blue-700" />
      <span>{label}</span>
    </div>
  );
}
