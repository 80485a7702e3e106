import { useEffect, useState } from 'react';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useOfflineReadiness } from './offline-readiness';

/** How long "Ready to work offline" stays in the header after getting ready; it is news once, not a fixture. */
export const READY_SHOWN_MS = 10_000;

/**
 * A small line in the header (issue #11.6): "Getting ready to work offline…" from sign-in until the
 * device holds everything it needs to open every page without a connection, then "Ready to work
 * offline" for a few seconds. Nothing at all on a device that was ready when the page opened, or
 * where the browser offers no service worker.
 */
export function OfflineReadinessLine() {
  const { state, becameReadyAt } = useOfflineReadiness();
  // Which "became ready" moment has had its few seconds: the clock is read in the effect, not in render.
  const [expiredAt, setExpiredAt] = useState<number | null>(null);
  const showReady = state === 'ready' && becameReadyAt !== null && expiredAt !== becameReadyAt;

  useEffect(() => {
    if (state !== 'ready' || becameReadyAt === null) return;
    const left = Math.max(0, READY_SHOWN_MS - (performance.now() - becameReadyAt));
    const t = window.setTimeout(() => setExpiredAt(becameReadyAt), left);
    return () => window.clearTimeout(t);
  }, [state, becameReadyAt]);

  const text =
    state === 'getting-ready' ? (
      <>
        <Loader2 aria-hidden="true" className="h-3.5 w-3.5 shrink-0 animate-spin" /> <span className="truncate">Getting ready to work offline…</span>
      </>
    ) : showReady ? (
      <>
        <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5 shrink-0 text-emerald-700" /> <span className="truncate">Ready to work offline</span>
      </>
    ) : null;

  // The live region stays mounted so the change from one message to the next is announced.
  return (
    <p role="status" data-testid="offline-readiness" data-state={state} className="flex min-w-0 items-center gap-1.5 overflow-hidden text-xs whitespace-nowrap text-slate-600 empty:hidden">
      {text}
    </p>
  );
}
