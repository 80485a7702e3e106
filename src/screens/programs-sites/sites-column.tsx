import { SECTION_TITLE } from '../../ui/field';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { createSite, type SiteInput } from '../../data/commands/sites';
import { useSites } from '../../data/queries/sites';
import { useIsAdmin } from '../../app/current-user';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonCards } from '../../ui/skeleton';
import { SiteCard } from './site-card';
import { SiteForm } from './site-form';

/** The Sites column of spec 2.11: count, admin 'Add Site', cards. */
export function SitesColumn() {
  const sites = useSites();
  const isAdmin = useIsAdmin();
  const [adding, setAdding] = useState(false);

  async function create(input: SiteInput): Promise<boolean> {
    try {
      await createSite(input);
      toast.success('Site created successfully!');
      setAdding(false);
      return true;
    } catch {
      toast.error('Failed to create site. Please try again.');
      return false;
    }
  }

  return (
    <section aria-labelledby="sites-heading">
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id="sites-heading" className="text-xl font-semibold text-slate-900">
          Sites ({sites ? sites.length : '…'})
        </h2>
        {isAdmin && !adding && (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Site
          </Button>
        )}
      </div>
      {adding && (
        <Card className="mb-4 p-5">
          <h3 className={`mb-3 ${SECTION_TITLE}`}>New Site</h3>
          <SiteForm
            initial={{ site_name: '', site_type: 'prison', active: true }}
            labels={{ submit: 'Create Site', pending: 'Creating...' }}
            onSubmit={create}
            onCancel={() => setAdding(false)}
          />
        </Card>
      )}
      {!sites ? (
        <SkeletonCards count={3} className="space-y-4" label="Loading sites" />
      ) : sites.length === 0 ? (
        <EmptyState title="No sites yet" description="Create your first site to get started" />
      ) : (
        <ul className="space-y-4">
          {sites.map((site) => (
            <li key={site.id}>
              <SiteCard site={site} isAdmin={isAdmin} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
