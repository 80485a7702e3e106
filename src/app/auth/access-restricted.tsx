import { ShieldAlert } from 'lucide-react';
import { Button } from '../../ui/button';

/** authError 'user_not_registered' (spec.md 2.3): the account is valid but not on this app. */
export function AccessRestricted({ onLogout }: { onLogout: () => void }) {
  return (
    <main data-app-ready className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <ShieldAlert aria-hidden="true" className="mx-auto mb-4 h-12 w-12 text-amber-600" />
        <h1 className="text-2xl font-bold text-slate-900">Access Restricted</h1>
        <p className="mt-3 text-slate-700">
          You are not registered to use this application. Please contact the app administrator to request access.
        </p>
        <div className="mt-6 rounded-lg bg-slate-50 p-4 text-left text-sm text-slate-700">
          <p>If you believe this is an error, you can:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>Verify you are logged in with the correct account</li>
            <li>Contact the app administrator for access</li>
            <li>Try logging out and back in again</li>
          </ul>
        </div>
        <Button className="mt-6" variant="secondary" onClick={onLogout}>
          Log out
        </Button>
      </div>
    </main>
  );
}
