import type { DataContext } from '../context';
import { guardQuota, RefusedError } from '../errors';
import { choiceFor, SITE_CHOICE_KEY, TABLET_SCOPE_KEY, type TabletScope } from '../sync/scope';

/** The scope is derived by the engine at the first sync; before it there are no defaults to choose from. */
export const NO_SCOPE_MESSAGE = "This tablet's sites are known after its first sync. Try again once it has synced.";

/**
 * Issue #22.1, "Sites on this tablet": make `siteIds` the sites this tablet holds. Stored as the
 * signed-in user's choice relative to their default (meta `siteChoice`, sync/scope.ts `choiceFor`),
 * so a cohort assigned to them later still brings its site. One transaction; then the engine is
 * asked to sync at once: the new sites' rows come in, the removed sites' rows leave (except
 * records with changes still waiting to be sent). Works offline: the change waits for the next sync.
 * Throws when no scope was derived for this user yet (NO_SCOPE_MESSAGE) or storage is full.
 */
export async function setSitesOnTablet(ctx: DataContext, siteIds: string[]): Promise<void> {
  const { db, userId } = ctx;
  if (!userId) throw new RefusedError(NO_SCOPE_MESSAGE);
  await guardQuota(() =>
    db.transaction('rw', db.meta, db.sites, async () => {
      const scope = (await db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope | undefined;
      if (!scope || scope.userId !== userId) throw new RefusedError(NO_SCOPE_MESSAGE);
      // `all` is only ever true for an administrator keeping every site, whose default is every
      // site the tablet knows — also one created since the scope was derived.
      const defaults = scope.all ? [...new Set([...scope.defaultSiteIds, ...((await db.sites.toCollection().primaryKeys()) as string[])])] : scope.defaultSiteIds;
      await db.meta.put({ key: SITE_CHOICE_KEY, value: choiceFor(userId, defaults, siteIds) });
    }),
  );
  ctx.sync?.syncNow();
}

/** "Back to my sites": forget the signed-in user's choice; the tablet holds their default sites again. */
export async function keepDefaultSites(ctx: DataContext): Promise<void> {
  const { db, userId } = ctx;
  await guardQuota(() =>
    db.transaction('rw', db.meta, async () => {
      const choice = (await db.meta.get(SITE_CHOICE_KEY))?.value as { userId?: string } | undefined;
      // Another user's choice is theirs to keep.
      if (choice && choice.userId === userId) await db.meta.delete(SITE_CHOICE_KEY);
    }),
  );
  ctx.sync?.syncNow();
}
