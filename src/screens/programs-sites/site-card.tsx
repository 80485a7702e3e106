import { MapPin } from 'lucide-react';
import { deleteSite, updateSite, type SiteInput } from '../../data/commands/sites';
import type { Site } from '../../../shared/entities';
import { humanize } from '../../domain/format';
import { Badge } from '../../ui/badge';
import { ManagedCard } from './managed-card';
import { SiteForm } from './site-form';

const MESSAGES = {
  updated: 'Site updated successfully!',
  updateFailed: 'Failed to update site',
  deleted: 'Site deleted successfully!',
  deleteFailed: 'Failed to delete site. It may be in use by cohorts.',
  consequence: ' Any cohorts at this site will be affected.',
};

/**
 * A site card (spec 2.11): name, type (underscore as space), city, county, active mark; on a tablet
 * holding some sites, 'On this tablet' when it holds this one (issue #22).
 */
export function SiteCard({ site, isAdmin, onTablet = false }: { site: Site; isAdmin: boolean; onTablet?: boolean }) {
  const place = [site.city, site.county].filter(Boolean).join(', ');
  return (
    <ManagedCard<SiteInput>
      kind="Site"
      id={site.id}
      name={site.site_name || 'Untitled Site'}
      active={site.active}
      isAdmin={isAdmin}
      details={
        <>
          {site.site_type && <span className="mt-1 block text-sm capitalize text-slate-600">{humanize(site.site_type)}</span>}
          {place && (
            <span className="mt-1 flex items-center gap-1 text-sm text-slate-500">
              <MapPin className="h-3.5 w-3.5" aria-hidden="true" />
              {place}
            </span>
          )}
          {onTablet && (
            <Badge tone="blue" className="mt-2">
              On this tablet
            </Badge>
          )}
        </>
      }
      renderForm={(form) => <SiteForm record={site} labels={{ submit: 'Save', pending: 'Saving...' }} {...form} />}
      update={(data, patch, basis) => updateSite(data, site.id, patch, basis)}
      remove={(data) => deleteSite(data, site.id)}
      messages={MESSAGES}
    />
  );
}
