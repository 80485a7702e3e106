import { AlertTriangle } from 'lucide-react';
import { Button } from '../../ui/button';

/**
 * Start-up failed for a reason the catalogue does not route (spec.md 8 "Other types: not shown"):
 * a 5xx, an unknown 403 reason, or no connection on a device with nothing cached. Saying so with a
 * retry beats a blank page or a login loop.
 */
export function StartupError({ message, onRetry, onLogout }: { message: string; onRetry: () => void; onLogout?: () => void }) {
  return (
    <main data-app-ready className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <AlertTriangle aria-hidden="true" className="mx-auto mb-4 h-12 w-12 text-red-600" />
        <h1 className="text-2xl font-bold text-slate-900">Passage could not start</h1>
        <p className="mt-3 text-slate-700">{message}</p>
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={onRetry}>Try again</Button>
          {onLogout && (
            <Button variant="secondary" onClick={onLogout}>
              Log out
            </Button>
          )}
        </div>
      </div>
    </main>
  );
}
