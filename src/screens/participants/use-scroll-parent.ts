import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Where the windowed grid sits: the element that scrolls it, the grid's width (its columns) and
 * its distance from the top of the scrolled content (the virtualizer's scrollMargin).
 */
export interface GridGeometry {
  /** The nearest ancestor whose overflow-y scrolls (the app shell's main area), else the window; null until measured. */
  scroller: Element | Window | null;
  width: number;
  scrollMargin: number;
}

/**
 * The last geometry measured in this tab. The grid's first render uses it as its guess: coming
 * back to Participants, the guess is right, so the page renders once and lays out once. With the
 * viewport's width as the guess instead, every visit rendered the grid three times (scroller, then
 * width — often another column count — then margin), each after a forced layout: 50 ms of
 * layout alone on a tablet 4× slower.
 */
let lastGeometry: GridGeometry | null = null;

/** Forgets the last geometry, as a newly opened tab has none (component tests start each file so). */
export function forgetGridGeometry(): void {
  lastGeometry = null;
}

function firstGuess(): GridGeometry {
  const last = lastGeometry;
  if (last && (isWindow(last.scroller) || (last.scroller as Element | null)?.isConnected)) return last;
  return { scroller: null, width: typeof window === 'undefined' ? 1024 : window.innerWidth, scrollMargin: 0 };
}

/** Measures all three at once (one layout), on mount and whenever the grid's size changes. */
export function useGridGeometry(ref: RefObject<HTMLElement | null>): GridGeometry {
  const [geometry, setGeometry] = useState(firstGuess);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const scroller = scrollParentOf(el);
      const width = el.getBoundingClientRect().width;
      const scrollMargin = offsetWithin(el, scroller);
      // Not laid out (a hidden tab, jsdom): keep the guessed width, and nothing to guess from next time.
      if (width > 0) lastGeometry = { scroller, width, scrollMargin };
      setGeometry((current) => {
        const next = { scroller, width: width > 0 ? width : current.width, scrollMargin };
        return next.scroller === current.scroller && next.width === current.width && next.scrollMargin === current.scrollMargin ? current : next;
      });
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return geometry;
}

/**
 * The element that scrolls the list: the nearest ancestor whose overflow-y scrolls (the app
 * shell's main area) or, when none does, the window. The windowed grid listens to it, so the page
 * scrolls as one piece instead of nesting a second scroll box inside the page.
 */
function scrollParentOf(node: HTMLElement): Element | Window {
  let el = node.parentElement;
  while (el && el !== document.body && el !== document.documentElement) {
    const { overflowY } = getComputedStyle(el);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') return el;
    el = el.parentElement;
  }
  return window;
}

/** Distance from the top of the scrolled content to the element: the virtualizer's scrollMargin. */
function offsetWithin(el: HTMLElement, scroller: Element | Window): number {
  const top = el.getBoundingClientRect().top;
  if (isWindow(scroller)) return top + scroller.scrollY;
  return top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** `instanceof Window` is unreliable across realms (jsdom, iframes); the window is itself. */
export function isWindow(x: Element | Window | null): x is Window {
  return x !== null && (x as Window).window === x;
}
