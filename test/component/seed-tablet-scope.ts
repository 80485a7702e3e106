import { db } from '../../src/data/db';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../src/data/sync/scope';
import { COACH } from './render-page';

/**
 * Stores the scope the engine would have derived for the signed-in coach (meta `tabletScope`,
 * issue #22): `all` = every site held; otherwise `siteIds` (own sites by default).
 */
export async function seedScope({ all = false, siteIds = ['s1'], defaultSiteIds = siteIds, userId = COACH.id }: Partial<TabletScope> = {}) {
  const scope: TabletScope = { userId, all, siteIds, defaultSiteIds, derivedAt: 0 };
  await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
}
