import { createElement, use, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { CloudOff } from 'lucide-react';
import { Button } from '../ui/button';

type Settling = Promise<boolean> & { status?: 'pending' | 'fulfilled'; value?: boolean };

/** A screen loaded from its own chunk: the route component, plus `preload()` for the router and the boot prefetch. */
export interface LazyScreen<P extends object> {
  (props: P): ReactNode;
  /** Loads the chunk; resolves true once the screen is in memory, false when the fetch failed. Never rejects. */
  load(): Promise<boolean>;
  /** The same for the router, which awaits it before showing the route. */
  preload(): Promise<void>;
  loaded(): boolean;
}

/**
 * One screen in its own chunk (issue #11.6: the first page needs about half the JavaScript).
 * Unlike the router's `lazyRouteComponent`, a failed fetch never reloads the page (offline, a
 * reload would land on the browser's error page and lose the page the coach was on): the screen
 * says it is not on this device yet and tries again on "Try again", or by itself on the next visit.
 * The router awaits `preload` before showing the route, so the previous page stays until the
 * chunk is there (from memory, the service worker's precache, or the network). Outside a route
 * (the toaster, the mobile sidebar) it needs a Suspense boundary, and `Unavailable` may be nothing.
 */
export function lazyScreen<P extends object>(
  importer: () => Promise<ComponentType<P>>,
  Unavailable: ComponentType<{ onRetry: () => void }> = ScreenNotOnDevice,
): LazyScreen<P> {
  let component: ComponentType<P> | undefined;
  let attempt: Settling | undefined;
  let failed = false;

  const start = (): Promise<boolean> => {
    failed = false;
    const p: Settling = importer().then(
      (c) => {
        component = c;
        return true;
      },
      (err: unknown) => {
        console.warn('A screen could not be loaded', err);
        failed = true;
        return false;
      },
    );
    // React's `use` reads a settled promise at once when it carries status and value (the
    // convention React itself uses); without them, a screen preloaded long ago would suspend again.
    p.status = 'pending';
    void p.then((v) => {
      p.status = 'fulfilled';
      p.value = v;
    });
    attempt = p;
    return p;
  };
  // A failed attempt is kept (so a render does not loop on it) until someone asks again.
  const load = (): Promise<boolean> => (component ? Promise.resolve(true) : !attempt || failed ? start() : attempt);

  function Screen(props: P) {
    const [, setTries] = useState(0);
    // Always through `use` (React requires the same hooks on every render): suspends only while loading.
    const ok = use(attempt ?? start());
    if (!ok || !component) {
      return (
        <Unavailable
          onRetry={() => {
            void start().then(async (ok) => {
              // Chromium keeps a dynamic import that failed failed for the page's lifetime, so a
              // second try never fetches. Once the page can be reloaded safely (the server answers,
              // or the service worker serves it), a reload fetches the chunk.
              if (!ok && (await reloadIsSafe())) window.location.reload();
            });
            setTries((n) => n + 1);
          }}
        />
      );
    }
    return createElement(component, props);
  }
  Screen.load = load;
  Screen.preload = () => load().then(() => undefined);
  Screen.loaded = () => component !== undefined;
  return Screen as LazyScreen<P>;
}

/** A reload will not land on the browser's "no internet" page. */
async function reloadIsSafe(): Promise<boolean> {
  if (navigator.serviceWorker?.controller) return true;
  try {
    const res = await fetch(window.location.href, { method: 'HEAD', cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/** What a coach sees when a screen's code never reached this device before the connection went. */
export function ScreenNotOnDevice({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center">
      <CloudOff aria-hidden="true" className="h-8 w-8 text-slate-400" />
      <h1 className="text-xl font-semibold text-slate-900">This page is not on this device yet</h1>
      <p className="text-sm text-slate-600">
        Passage was still getting ready to work offline when the connection went. Your data and changes are safe; this page opens once the
        connection returns.
      </p>
      <Button onClick={onRetry}>Try again</Button>
    </div>
  );
}

/**
 * A piece of the shell in its own chunk that shows nothing until it arrives (the toaster, the
 * mobile sidebar): no Suspense, so the page around it never waits for it. Loaded on first mount or
 * by `load()` (the preload after the first page); a failed fetch is tried again on the next mount.
 */
export function lazyPart<P extends object>(importer: () => Promise<ComponentType<P>>): ((props: P) => ReactNode) & { load(): Promise<boolean> } {
  const screen = lazyScreen(importer, () => null);
  const load = () => screen.load();
  function Part(props: P) {
    const [ready, setReady] = useState(() => screen.loaded());
    useEffect(() => {
      if (ready) return;
      let live = true;
      void load().then((ok) => live && ok && setReady(true));
      return () => {
        live = false;
      };
    }, [ready]);
    return ready ? createElement(screen, props) : null;
  }
  Part.load = load;
  return Part;
}
