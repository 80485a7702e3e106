import { useContext, useEffect, useEffectEvent } from 'react';
import { WifiOff } from 'lucide-react';
import { Button } from '../../ui/button';
import { PlatformContext } from '../platform-context';
import { isTransportFailure } from './auth-errors';

/** How often the screen asks the server whether it can be reached again. */
const PROBE_MS = 5000;

/**
 * Signed out with no connection (issue #9.8): after a logout offline, or opening Passage offline
 * with no one signed in. Sign-in is the server's page, so this says that it needs a connection and
 * offers a retry — which also runs by itself when the browser reports the connection back, or,
 * since a browser does not always say so (a dead uplink coming back, a page opened offline), when
 * the server answers one of the small requests sent every few seconds while the page is visible.
 */
export function SignedOutOffline({ onRetry }: { onRetry: () => void }) {
  const client = useContext(PlatformContext);
  const retry = useEffectEvent(onRetry);
  useEffect(() => {
    const online = () => retry();
    window.addEventListener('online', online);
    let live = true;
    const timer = setInterval(() => {
      if (!client || document.visibilityState !== 'visible') return;
      // Any HTTP answer (a 403 for a private app included) means the server is back.
      client.getPublicSettings().then(
        () => live && retry(),
        (error: unknown) => live && !isTransportFailure(error) && retry(),
      );
    }, PROBE_MS);
    return () => {
      live = false;
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [client]);

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
