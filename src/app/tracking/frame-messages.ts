/**
 * Messages to a hosting editor's frame (spec.md 1, 8; platform-contract.md 1.6, 8): URL changes and
 * unhandled errors, posted only when Passage runs inside a frame (window.self !== window.top).
 * HTTP 402 is expected (an unpaid plan) and is not reported.
 */
export interface FrameErrorMessage {
  type: 'app_error';
  error: { title: string; details: string };
}

export function isInFrame(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    // A cross-origin parent makes window.top unreadable in some browsers: that is a frame too.
    return true;
  }
}

function statusOf(reason: unknown): unknown {
  const r = reason as { status?: unknown; response?: { status?: unknown } } | null;
  return r && typeof r === 'object' ? (r.status ?? r.response?.status) : undefined;
}

/** The message for an unhandled error or rejection, or null when it must not be reported. */
export function frameErrorMessage(reason: unknown): FrameErrorMessage | null {
  if (statusOf(reason) === 402) return null;
  const text = reason instanceof Error ? reason.toString() : String(reason);
  return { type: 'app_error', error: { title: text, details: reason instanceof Error && reason.stack ? reason.stack : text } };
}

/**
 * Reports one error to the parent frame, when there is one. For errors an error boundary caught
 * (src/app/route-error.tsx, app-error-boundary.tsx): React does not raise them as window errors,
 * yet the page failed as surely as with an unhandled one.
 */
export function reportToFrame(reason: unknown, win: Window = window): void {
  if (!isInFrame(win)) return;
  const message = frameErrorMessage(reason);
  if (message) win.parent.postMessage(message, '*');
}

/** Reports unhandled errors and rejections to the parent frame; returns the uninstaller. */
export function installFrameErrorReporting(win: Window = window): () => void {
  if (!isInFrame(win)) return () => undefined;
  const post = (reason: unknown) => reportToFrame(reason, win);
  const onError = (e: ErrorEvent) => post(e.error ?? e.message);
  const onRejection = (e: PromiseRejectionEvent) => post(e.reason);
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
  };
}
