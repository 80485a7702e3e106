import { useCallback, useEffect, useState } from 'react';
import { isSidebarShortcut, MOBILE_BREAKPOINT, readSidebarCookie, sidebarCookieValue } from './sidebar-state';

function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [mobile, setMobile] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(query);
    const onChange = () => setMobile(mql.matches);
    mql.addEventListener('change', onChange);
    onChange();
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return mobile;
}

/**
 * Sidebar state: on desktop open (16rem) or collapsed to icons (3rem), remembered in the cookie;
 * under 768px a slide-in panel, closed by default and not remembered. Ctrl/Cmd+B toggles whichever
 * applies.
 */
export function useSidebar() {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => (typeof document === 'undefined' ? true : readSidebarCookie(document.cookie)));
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
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
