import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, buttonClass } from '../ui/button';
import { ErrorPanel, UNEXPECTED_ERROR, errorDetail } from '../ui/error-panel';
import { pagePath } from '../shell-api/paths';
import { reportToFrame } from './tracking/frame-messages';

/**
 * The last net (issue #27): a render error outside any page (the shell, the sign-in gate, the
 * router itself) shows what happened and the ways back instead of a blank screen. 'Try again'
 * renders the app afresh; the Dashboard link loads it anew from the start.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: { error: unknown } | null }> {
  override state: { failed: { error: unknown } | null } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    // Boxed: a component may throw anything, even undefined.
    return { failed: { error } };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo) {
    reportToFrame(error);
  }

  override render() {
    const { failed } = this.state;
    if (!failed) return this.props.children;
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
        <ErrorPanel
          title={UNEXPECTED_ERROR}
          message="Passage could not show this screen. Everything saved on this tablet is safe."
          detail={errorDetail(failed.error)}
          actions={
            <>
              <Button onClick={() => this.setState({ failed: null })}>Try again</Button>
              <a href={pagePath('Dashboard')} className={buttonClass('secondary')}>
                Back to Dashboard
              </a>
            </>
          }
        />
      </main>
    );
  }
}
