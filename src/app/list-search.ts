import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { pagePath, type PageName } from './paths';

/**
 * Search text and filters of a list page kept in its URL (issue #12.8): `?q=…&status=…` survives
 * opening a record and coming back (browser Back, or the detail page's back link, which reads the
 * last search remembered here), a reload, and a shared link.
 */

/** The last search of each list page in this tab, so a back link can return to it. */
const remembered = new Map<PageName, Record<string, string>>();

export function rememberedSearch(page: PageName): Record<string, string> {
  return remembered.get(page) ?? {};
}

/** Only for tests: forget what the back links would restore. */
export function forgetListSearches(): void {
  remembered.clear();
}

/** Milliseconds of typing pause before the URL follows the search box: one history write per pause, not per key. */
const URL_DELAY_MS = 300;

/**
 * `[values, setValue]` for the named params of a list page; '' (or the default) leaves a param out
 * of the URL. Text typed into a search box is shown at once and written to the URL after a pause;
 * `{ now: true }` (a select) writes it at once. When the URL changes from outside (the sidebar's
 * link to the same list, browser Back), the values follow it.
 */
export function useListSearch<K extends string>(
  page: PageName,
  keys: readonly K[],
): [Record<K, string>, (key: K, value: string, options?: { now?: boolean }) => void] {
  const navigate = useNavigate();
  const fromUrl = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const read = (source: Record<string, unknown>) =>
    Object.fromEntries(keys.map((k) => [k, typeof source[k] === 'string' ? (source[k] as string) : ''])) as Record<K, string>;
  const [values, setValues] = useState<Record<K, string>>(() => read(fromUrl));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The values as last set (by the coach or by the URL): read by the delayed URL write.
  const latest = useRef(values);

  useEffect(() => {
    const search = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')) as Record<string, string>;
    remembered.set(page, search);
  }, [page, values]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The URL moved without us (no write pending): show what it says.
  const urlKey = JSON.stringify(read(fromUrl));
  useEffect(() => {
    if (timer.current !== undefined) return;
    if (urlKey === JSON.stringify(latest.current)) return;
    const next = JSON.parse(urlKey) as Record<K, string>;
    latest.current = next;
    setValues(next);
  }, [urlKey]);

  function write() {
    timer.current = undefined;
    const search = Object.fromEntries(Object.entries(latest.current).filter(([, v]) => v !== ''));
    // resetScroll false: writing the search must not jump the list back to its top.
    void navigate({ to: pagePath(page), search, replace: true, resetScroll: false });
  }

  function setValue(key: K, value: string, options: { now?: boolean } = {}) {
    const next = { ...latest.current, [key]: value };
    latest.current = next;
    setValues(next);
    clearTimeout(timer.current);
    if (options.now) write();
    else timer.current = setTimeout(write, URL_DELAY_MS);
  }

  return [values, setValue];
}
