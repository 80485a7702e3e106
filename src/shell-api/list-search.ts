import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { lastSearch, MEMORY_ONLY, rememberSearch } from './list-memory';
import { pagePath, type PageName } from './paths';

/**
 * Search text and filters of a list page (issue #12.8). Filters (`?status=…`) live in the URL: they
 * survive a reload and a shared link. The text typed in a search box is often a participant's name,
 * so it lives in this tab's memory only (issue #21.6): never in the URL, where it would land in the
 * browser's history and session files on the tablet's disk. Both survive opening a record and
 * coming back (browser Back, or the detail page's back link).
 */

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
  // Leaving the list, the router shows the next page's address before this one unmounts: only an
  // address of this list moves its values.
  const onThisPage = useRouterState({ select: (s) => s.location.pathname === pagePath(page) });
  const urlKeys = keys.filter((k) => !MEMORY_ONLY.has(k));
  const read = (source: Record<string, unknown>) =>
    Object.fromEntries(urlKeys.map((k) => [k, typeof source[k] === 'string' ? (source[k] as string) : ''])) as Record<K, string>;
  const [values, setValues] = useState<Record<K, string>>(() => {
    const kept = lastSearch(page);
    // An old link's ?q= is taken into memory (and leaves the address at the first write below).
    const memory = Object.fromEntries(
      keys.filter((k) => MEMORY_ONLY.has(k)).map((k) => [k, typeof fromUrl[k] === 'string' ? (fromUrl[k] as string) : (kept[k] ?? '')]),
    );
    return { ...memory, ...read(fromUrl) } as Record<K, string>;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The values as last set (by the coach or by the URL): read by the delayed URL write.
  const latest = useRef(values);

  useEffect(() => {
    const search = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')) as Record<string, string>;
    rememberSearch(page, search);
  }, [page, values]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The URL moved without us (no write pending): show what it says (the search text stays).
  const urlKey = JSON.stringify(read(fromUrl));
  const hasMemoryParam = keys.some((k) => MEMORY_ONLY.has(k) && typeof fromUrl[k] === 'string');
  // The URL's filters as last seen: only a change of them (not a mount) moves the values.
  const seenUrlKey = useRef(urlKey);
  useEffect(() => {
    if (hasMemoryParam && onThisPage) {
      write();
      return;
    }
    if (!onThisPage || seenUrlKey.current === urlKey) return;
    seenUrlKey.current = urlKey;
    if (timer.current !== undefined) return;
    // Moved by a link to the list itself (the sidebar): the search text goes with the old filters.
    const cleared = Object.fromEntries(keys.filter((k) => MEMORY_ONLY.has(k)).map((k) => [k, '']));
    const next = { ...latest.current, ...cleared, ...(JSON.parse(urlKey) as Record<K, string>) };
    if (JSON.stringify(next) === JSON.stringify(latest.current)) return;
    latest.current = next;
    setValues(next);
    // write() reads only refs and the router: it is the same operation on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urlKey, hasMemoryParam, onThisPage]);

  function write() {
    timer.current = undefined;
    const search = Object.fromEntries(Object.entries(latest.current).filter(([k, v]) => v !== '' && !MEMORY_ONLY.has(k)));
    seenUrlKey.current = JSON.stringify(Object.fromEntries(urlKeys.map((k) => [k, (search as Record<string, string>)[k] ?? ''])));
    // resetScroll false: writing the search must not jump the list back to its top.
    void navigate({ to: pagePath(page), search, replace: true, resetScroll: false });
  }

  function setValue(key: K, value: string, options: { now?: boolean } = {}) {
    const next = { ...latest.current, [key]: value };
    latest.current = next;
    setValues(next);
    clearTimeout(timer.current);
    timer.current = undefined;
    if (MEMORY_ONLY.has(key)) return;
    if (options.now) write();
    else timer.current = setTimeout(write, URL_DELAY_MS);
  }

  return [values, setValue];
}
