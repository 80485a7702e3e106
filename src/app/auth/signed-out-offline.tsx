import { useEffect } from 'react';
import { WifiOff } from 'lucide-react';
import { Button } from '../../ui/button';

/**
 * Signed out with no connection (issue #9.8): after a logout offline, or opening Passage offline
 * with no one signed in. Sign-in is the server's page, so this says that it needs a connection and
 * offers a retry — which also runs by itself when the browser reports the connection back.
 */
export function SignedOutOffline({ onRetry }: { onRetry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);

  return (
    <main data-app-ready className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <WifiOff aria-hidden="true" className="mx-auto mb-4 h-12 w-12 text-slate-500" />
        <h1 className="text-2xl font-bold text-slate-900">You are signed out</h1>
        <p className="mt-3 text-slate-700">Signing in needs a connection. Connect this device to the internet, then try again.</p>
        <div className="mt-6 flex justify-center">
          <Button onClick={onRetry}>Try again</Button>
        </div>
      </div>
    </main>
  );
}
