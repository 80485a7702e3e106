import { useEffect } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { pageOfPath } from '../../shell-api/paths';
import { isInFrame } from './frame-messages';

/**
 * On each route change: tell a hosting frame the new URL, and — when signed in and online — send
 * the page name to the app-usage log (spec.md 2.3, 7.2). Logging errors are ignored: a usage log
 * must never break a page. Offline visits are not queued; the log is a convenience, not a record.
 */
export function NavigationTracker({ isAuthenticated, logPage }: { isAuthenticated: boolean; logPage: (pageName: string) => Promise<unknown> }) {
  const href = useRouterState({ select: (s) => s.location.href });
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  useEffect(() => {
    if (isInFrame()) window.parent.postMessage({ type: 'app_changed_url', url: window.location.href }, '*');
  }, [href]);

  useEffect(() => {
    const page = pageOfPath(pathname);
    if (!isAuthenticated || !page) return;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
    logPage(page).catch(() => undefined);
  }, [pathname, isAuthenticated, logPage]);

  return null;
}
