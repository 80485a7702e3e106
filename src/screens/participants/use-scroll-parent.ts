import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The element that scrolls the list: the nearest ancestor whose overflow-y scrolls (the app
 * shell's main area) or, when none does, the window. The windowed grid listens to it, so the page
 * scrolls as one piece instead of nesting a second scroll box inside the page.
 */
export function useScrollParent(ref: RefObject<HTMLElement | null>): Element | Window | null {
  const [parent, setParent] = useState<Element | Window | null>(null);
  useLayoutEffect(() => {
    let el = ref.current?.parentElement ?? null;
    while (el && el !== document.body && el !== document.documentElement) {
      const { overflowY } = getComputedStyle(el);
      if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') {
        setParent(el);
        return;
      }
      el = el.parentElement;
    }
    setParent(window);
  }, [ref]);
  return parent;
}

/** Distance from the top of the scrolled content to the element: the virtualizer's scrollMargin. */
export function offsetWithin(el: HTMLElement, scroller: Element | Window): number {
  const top = el.getBoundingClientRect().top;
  if (isWindow(scroller)) return top + scroller.scrollY;
  return top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** `instanceof Window` is unreliable across realms (jsdom, iframes); the window is itself. */
export function isWindow(x: Element | Window | null): x is Window {
  return x !== null && (x as Window).window === x;
}
