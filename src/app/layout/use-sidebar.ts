import { useCallback, useEffect, useState } from 'react';
import { isSidebarShortcut, MOBILE_BREAKPOINT, sidebarCookieValue, storedSidebarOpen, WIDE_BREAKPOINT } from './sidebar-state';

/** Whether `query` matches, live; `otherwise` where the browser cannot tell (no matchMedia). */
function useMediaQuery(query: string, otherwise = false): boolean {
  const get = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : otherwise);
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    mql.addEventListener('change', onChange);
    onChange();
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

/**
 * Sidebar state: from 768px open (16rem) or collapsed to icons (3rem), remembered in the cookie;
 * with no choice remembered, open from 1024px up and icons below, following the tablet as it
 * turns (issue #23.9); under 768px a slide-in panel, closed by default and not remembered.
 * Ctrl/Cmd+B toggles whichever applies.
 */
export function useSidebar() {
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`);
  const wide = useMediaQuery(`(min-width: ${WIDE_BREAKPOINT}px)`, true);
  const [saved, setSaved] = useState(() => (typeof document === 'undefined' ? null : storedSidebarOpen(document.cookie)));
  const open = saved ?? wide;
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setSaved(value);
    document.cookie = sidebarCookieValue(value);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSidebarShortcut(e)) return;
      e.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return { isMobile, open, openMobile, setOpenMobile, toggle };
}
