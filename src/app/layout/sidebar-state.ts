/**
 * The sidebar's remembered state (spec.md 2.2, 9): cookie `sidebar_state`, 7 days, whole site.
 * A cookie rather than localStorage so the value matches the reference product's behaviour.
 */
export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7; // 604800 s
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const MOBILE_BREAKPOINT = 768;
export const TOOLTIP_DELAY_MS = 700;

/**
 * Issue #23.9: below this width, with no choice saved, the sidebar starts as the 3rem icon rail.
 * On a portrait tablet (768 px) the open sidebar took a third of the width and squeezed the
 * header until it hid who is signed in.
 */
export const WIDE_BREAKPOINT = 1024;

/** The open state saved in a `document.cookie` string, or null when none is saved. */
export function storedSidebarOpen(cookie: string): boolean | null {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE) return rest.join('=') !== 'false';
  }
  return null;
}

/** The stored open state from a `document.cookie` string; open when absent or unreadable. */
export function readSidebarCookie(cookie: string): boolean {
  return storedSidebarOpen(cookie) ?? true;
}

export function sidebarCookieValue(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}`;
}

/** Ctrl+B or Cmd+B, without other modifiers. */
export function isSidebarShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (e.key === 'b' || e.key === 'B') && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}
