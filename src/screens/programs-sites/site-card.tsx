import { MapPin } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { deleteSite, updateSite, type SiteInput } from '../../data/commands/sites';
import type { Site } from '../../data/types';
import { humanize } from '../../domain/format';
import { Card } from '../../ui/card';
import { PageLink } from '../../ui/page-link';
import { ActiveIcon } from './active-icon';
import { CardActions } from './card-actions';
import { DeleteDialog } from './delete-dialog';
import { SiteForm } from './site-form';

/** A site card (spec 2.11): name, type (underscore as space), city, county, active mark. */
export function SiteCard({ site, isAdmin }: { site: Site; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const name = site.site_name || 'Untitled Site';
  const place = [site.city, site.county].filter(Boolean).join(', ');

  async function save(input: SiteInput): Promise<boolean> {
    try {
      await updateSite(site.id, input);
      toast.success('Site updated successfully!');
      setEditing(false);
      return true;
    } catch {
      toast.error('Failed to update site');
      return false;
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteSite(site.id);
      toast.success('Site deleted successfully!');
      setConfirming(false);
    } catch {
      toast.error('Failed to delete site. It may be in use by cohorts.');
    } finally {
      setDeleting(false);
    }
  }

  if (editing) {
    return (
      <Card className="p-5">
        <h3 className="mb-3 text-base font-semibold text-slate-900">Edit Site</h3>
        <SiteForm initial={site} labels={{ submit: 'Save', pending: 'Saving...' }} onSubmit={save} onCancel={() => setEditing(false)} />
      </Card>
    );
  }

  return (
    <Card className="p-5">
      <article aria-label={name}>
        <PageLink page="SiteDetail" id={site.id} className="group flex items-start justify-between gap-3 rounded-lg">
          <span className="min-w-0">
            <span className="block text-lg font-semibold text-slate-900 group-hover:text-blue-700">{name}</span>
            {site.site_type && <span className="mt-1 block text-sm capitalize text-slate-600">{humanize(site.site_type)}</span>}
            {place && (
              <span className="mt-1 flex items-center gap-1 text-sm text-slate-500">
                <MapPin className="h-3.5 w-3.5" aria-hidden="true" />
                {place}
              </span>
            )}
          </span>
          <ActiveIcon active={site.active} />
        </PageLink>
        {isAdmin && <CardActions onEdit={() => setEditing(true)} onDelete={() => setConfirming(true)} />}
      </article>
      <DeleteDialog
        open={confirming}
        name={name}
        consequence=" Any cohorts at this site will be affected."
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
