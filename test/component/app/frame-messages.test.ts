import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameErrorMessage, installFrameErrorReporting, isInFrame } from '../../../src/app/tracking/frame-messages';
import { PlatformError } from '../../../src/platform';

function framedWindow() {
  const posted: unknown[] = [];
  const listeners = new Map<string, (e: unknown) => void>();
  const win = {
    self: {},
    top: {},
    parent: { postMessage: (m: unknown) => posted.push(m) },
    addEventListener: (t: string, f: (e: unknown) => void) => listeners.set(t, f),
    removeEventListener: (t: string) => listeners.delete(t),
  };
  return { win: win as unknown as Window, posted, listeners };
}

afterEach(() => vi.restoreAllMocks());

describe('reporting to a hosting frame', () => {
  it('is off when not framed (jsdom top window)', () => {
    expect(isInFrame(window)).toBe(false);
  });

  it('reports unhandled errors and rejections, except HTTP 402', () => {
    const { win, posted, listeners } = framedWindow();
    const uninstall = installFrameErrorReporting(win);
    listeners.get('error')!({ error: new Error('kaboom') });
    listeners.get('unhandledrejection')!({ reason: new PlatformError('Payment required', { status: 402 }) });
    listeners.get('unhandledrejection')!({ reason: new PlatformError('Server down', { status: 503 }) });
    expect(posted).toHaveLength(2);
    expect(posted[0]).toMatchObject({ type: 'app_error', error: { title: 'Error: kaboom' } });
    expect(posted[1]).toMatchObject({ type: 'app_error', error: { title: 'PlatformError: Server down' } });
    uninstall();
    expect(listeners.size).toBe(0);
  });

  it('frameErrorMessage skips 402 from axios-shaped errors too', () => {
    expect(frameErrorMessage({ response: { status: 402 } })).toBeNull();
    expect(frameErrorMessage('plain text')).toEqual({ type: 'app_error', error: { title: 'plain text', details: 'plain text' } });
  });
});
