import type { Site } from '../../../shared/entities';
import type { DataContext } from '../context';
import { InUseError } from '../errors';
import { createRecord, deleteRecord, updateRecord, type EditBasis } from './record-writes';

export type SiteInput = Pick<Site, 'site_name'> & Partial<Omit<Site, 'id' | 'site_name' | 'created_date' | 'updated_date' | 'client_ref'>>;

/** New sites are active prisons unless said otherwise (spec 4 and 9). */
export function createSite(ctx: DataContext, input: SiteInput): Promise<Site> {
  return createRecord<Site>(ctx, 'Site', { ...input, site_type: input.site_type ?? 'prison', active: input.active ?? true });
}

/** `basis`: the site as the edit form opened (S18), when it may have changed on another device since. */
export function updateSite(ctx: DataContext, id: string, patch: Partial<SiteInput>, basis?: EditBasis): Promise<Site> {
  return updateRecord<Site>(ctx, 'Site', id, patch, undefined, basis ? { basis } : undefined);
}

/** Refused with InUseError while cohorts on this device use the site (issue #12.4). */
export function deleteSite(ctx: DataContext, id: string): Promise<void> {
  const { db } = ctx;
  return deleteRecord(ctx, 'Site', id, {
    tables: [db.cohorts],
    check: async (realId) => {
      const count = await db.cohorts.where('site_id').equals(realId).count();
      if (count > 0) throw new InUseError('site', count);
    },
  });
}
