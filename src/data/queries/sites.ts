import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import type { Site } from '../../../shared/entities';
import { getByIdOrAlias } from './by-id';
import { keyByAlias, type Keyed } from './stable-keys';

/** Sites by name (case-insensitive). */
export function bySiteName(a: Site, b: Site): number {
  return (a.site_name ?? '').localeCompare(b.site_name ?? '', undefined, { sensitivity: 'base' });
}

export function useSites(): Site[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => (await db.sites.toArray()).sort(bySiteName), [db]);
}

/** As useSites, each with a key that stays the same when the server assigns its id (S2). */
export function useKeyedSites(): Keyed<Site>[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => keyByAlias(ctx, 'Site', (await ctx.db.sites.toArray()).sort(bySiteName)), [ctx]);
}

/** `null` when the id (or its temporary-id alias) matches no site. */
export function useSite(id: string): Site | null | undefined {
  const ctx = useDataContext();
  return useLiveQuery(() => getByIdOrAlias(ctx, ctx.db.sites, id), [ctx, id]);
}

/** Sites by id, for labelling cohort cards without one read per card. */
export function useSitesById(): Map<string, Site> | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => new Map((await db.sites.toArray()).map((s) => [s.id, s])), [db]);
}
