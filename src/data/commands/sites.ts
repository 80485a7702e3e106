import type { Site } from '../../../shared/entities';
import { createRecord, deleteRecord, updateRecord } from './record-writes';

export type SiteInput = Pick<Site, 'site_name'> & Partial<Omit<Site, 'id' | 'site_name' | 'created_date' | 'updated_date' | 'client_ref'>>;

/** New sites are active prisons unless said otherwise (spec 4 and 9). */
export function createSite(input: SiteInput): Promise<Site> {
  return createRecord<Site>('Site', { ...input, site_type: input.site_type ?? 'prison', active: input.active ?? true });
}

export function updateSite(id: string, patch: Partial<SiteInput>): Promise<Site> {
  return updateRecord<Site>('Site', id, patch);
}

export function deleteSite(id: string): Promise<void> {
  return deleteRecord('Site', id);
}
