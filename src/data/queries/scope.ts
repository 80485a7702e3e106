import { useLiveQuery } from 'dexie-react-hooks';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { SITE_CHOICE_KEY, TABLET_SCOPE_KEY, type SiteChoice, type TabletScope } from '../sync/scope';

/** Screens take these types from here, never from data/sync. */
export type { SiteChoice, TabletScope } from '../sync/scope';

/** A meta row kept per user (the scope, the site choice): null when absent or another user's. */
async function userMeta<T extends { userId: string }>({ db, userId }: DataContext, key: string): Promise<T | null> {
  const value = (await db.meta.get(key))?.value as T | undefined;
  return value && userId !== null && value.userId === userId ? value : null;
}

/** The engine's last scope for the signed-in user, or null (for data/online, outside React). */
export function readTabletScope(ctx: DataContext): Promise<TabletScope | null> {
  return userMeta<TabletScope>(ctx, TABLET_SCOPE_KEY);
}

/**
 * Issue #22: the sites this tablet holds, as the sync engine derived them last (meta
 * `tabletScope`). `undefined` while loading; `null` before the engine derived one for the signed-in
 * user (first sync not begun, or the stored scope is another user's). Screens say what their
 * counts cover with it (domain/scope-phrase.ts).
 */
export function useTabletScope(): TabletScope | null | undefined {
  const ctx = useDataContext();
  const { db, userId } = ctx;
  return useLiveQuery(() => readTabletScope(ctx), [ctx, db, userId]);
}

/**
 * The signed-in user's choice on "Sites on this tablet" (sites added to and removed from their
 * default), or `null` when they keep their default; `undefined` while loading. Another user's
 * choice left on the tablet does not count.
 */
export function useSiteChoice(): SiteChoice | null | undefined {
  const ctx = useDataContext();
  const { db, userId } = ctx;
  return useLiveQuery(() => userMeta<SiteChoice>(ctx, SITE_CHOICE_KEY), [ctx, db, userId]);
}

/**
 * The sites a choice makes the tablet hold: the defaults, plus the sites added, minus those
 * removed (as the engine derives it, sync/scope.ts `deriveScope`). Sorted; no choice = the defaults.
 */
export function chosenSites(defaults: readonly string[], choice: Pick<SiteChoice, 'added' | 'removed'> | null | undefined): string[] {
  const removed = new Set(choice?.removed ?? []);
  return [...new Set([...defaults, ...(choice?.added ?? [])])].filter((s) => !removed.has(s)).sort();
}
