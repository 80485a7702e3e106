import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import { SITE_CHOICE_KEY, TABLET_SCOPE_KEY, type SiteChoice, type TabletScope } from '../sync/scope';

/** Screens take these types from here, never from data/sync. */
export type { SiteChoice, TabletScope } from '../sync/scope';

/**
 * Issue #22: the sites this tablet holds, as the sync engine derived them last (meta
 * `tabletScope`). `undefined` while loading; `null` before the engine derived one for the signed-in
 * user (first sync not begun, or the stored scope is another user's). Screens say what their
 * counts cover with it (domain/scope-phrase.ts).
 */
export function useTabletScope(): TabletScope | null | undefined {
  const { db, userId } = dataContext();
  return useLiveQuery(async () => {
    const scope = (await db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope | undefined;
    return scope && userId !== null && scope.userId === userId ? scope : null;
  }, [db, userId]);
}

/**
 * The signed-in user's choice on "Sites on this tablet" (sites added to and removed from their
 * default), or `null` when they keep their default; `undefined` while loading. Another user's
 * choice left on the tablet does not count.
 */
export function useSiteChoice(): SiteChoice | null | undefined {
  const { db, userId } = dataContext();
  return useLiveQuery(async () => {
    const choice = (await db.meta.get(SITE_CHOICE_KEY))?.value as SiteChoice | undefined;
    return choice && userId !== null && choice.userId === userId ? choice : null;
  }, [db, userId]);
}

/**
 * The sites a choice makes the tablet hold: the defaults, plus the sites added, minus those
 * removed (as the engine derives it, sync/scope.ts `deriveScope`). Sorted; no choice = the defaults.
 */
export function chosenSites(defaults: readonly string[], choice: Pick<SiteChoice, 'added' | 'removed'> | null | undefined): string[] {
  const removed = new Set(choice?.removed ?? []);
  return [...new Set([...defaults, ...(choice?.added ?? [])])].filter((s) => !removed.has(s)).sort();
}
