import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import type { Site } from '../../../shared/entities';
import { getByIdOrAlias } from './cohorts';
import { keyByAlias, type Keyed } from './stable-keys';

/** The database of the data context: the one commands write (tests point both at a fresh one). */
const db = () => dataContext().db;

/** Sites by name (case-insensitive). */
export function bySiteName(a: Site, b: Site): number {
  return (a.site_name ?? '').localeCompare(b.site_name ?? '', undefined, { sensitivity: 'base' });
}

export function useSites(): Site[] | undefined {
  return useLiveQuery(async () => (await db().sites.toArray()).sort(bySiteName), []);
}

/** As useSites, each with a key that stays the same when the server assigns its id (S2). */
export function useKeyedSites(): Keyed<Site>[] | undefined {
  return useLiveQuery(async () => keyByAlias('Site', (await db().sites.toArray()).sort(bySiteName)), []);
}

/** `null` when the id (or its temporary-id alias) matches no site. */
export function useSite(id: string): Site | null | undefined {
  return useLiveQuery(() => getByIdOrAlias(db().sites, id), [id]);
}

/** Sites by id, for labelling cohort cards without one read per card. */
export function useSitesById(): Map<string, Site> | undefined {
  return useLiveQuery(async () => new Map((await db().sites.toArray()).map((s) => [s.id, s])), []);
}
