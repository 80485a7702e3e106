import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Button, buttonClass } from '../ui/button';
import { ErrorPanel, UNEXPECTED_ERROR, errorDetail } from '../ui/error-panel';
import { pagePath } from '../shell-api/paths';
import { reportToFrame } from './tracking/frame-messages';

/**
 * A page that threw while rendering (issue #27): in place of the page only — the sidebar and header
 * stay, so every other page is one tap away — a short message, the detail folded away, 'Try again'
 * (the page is rendered afresh: its live queries read again) and the way to the Dashboard.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <ErrorPanel
      title={UNEXPECTED_ERROR}
      message="This page could not be shown. Everything saved on this tablet is safe."
      detail={errorDetail(error)}
      actions={
        <>
          <Button
            onClick={() => {
              reset();
              void router.invalidate();
            }}
          >
            Try again
          </Button>
          <Link to={pagePath('Dashboard')} className={buttonClass('secondary')}>
            Back to Dashboard
          </Link>
        </>
      }
    />
  );
}

/** The router's error options, for the app's router and the tests' (test/component/render-page.tsx). */
export const ROUTE_ERROR_OPTIONS = {
  defaultErrorComponent: RouteError,
  // A caught error is no window error: tell a hosting editor's frame, as for an unhandled one (spec.md 8).
  defaultOnCatch: (error: unknown) => reportToFrame(error),
};
