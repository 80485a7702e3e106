import { SECTION_TITLE } from '../../ui/field';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { createSite, type SiteInput } from '../../data/commands/sites';
import { useKeyedSites } from '../../data/queries/sites';
import { useTabletScope } from '../../data/queries/scope';
import { useIsAdmin } from '../../app/current-user';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonCards } from '../../ui/skeleton';
import { holdsSite, isScoped, SitesOnTabletLink } from '../parts/scope-absence';
import { SiteCard } from './site-card';
import { SiteForm } from './site-form';

/**
 * The Sites column of spec 2.11: count, admin 'Add Site', cards. `firstSync`: 'loading' keeps the
 * skeletons, 'partial' (offline, cut off) hides the empty state. On a tablet holding some sites
 * (issue #22), the sites it holds are marked 'On this tablet'.
 */
export function SitesColumn({ firstSync = 'ready' }: { firstSync?: 'ready' | 'partial' | 'loading' }) {
  const sites = useKeyedSites();
  const isAdmin = useIsAdmin();
  const scope = useTabletScope();
  const scoped = isScoped(scope);
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
          Sites ({sites && firstSync === 'ready' ? sites.length : '…'})
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
      {scoped && sites && sites.length > 0 && firstSync !== 'loading' && (
        <p className="mb-4 text-sm text-slate-600" data-testid="sites-scope">
          The cohorts and participants of the sites marked ‘On this tablet’ are here; change them under <SitesOnTabletLink />.
        </p>
      )}
      {!sites || firstSync === 'loading' ? (
        <SkeletonCards count={3} className="space-y-4" label="Loading sites" />
      ) : sites.length === 0 ? (
        firstSync === 'partial' ? null : <EmptyState title="No sites yet" description="Create your first site to get started" />
      ) : (
        <ul className="space-y-4">
          {sites.map(({ key, row: site }) => (
            // Keyed by the temporary id when it had one: an open Edit form survives the id swap.
            <li key={key}>
              <SiteCard site={site} isAdmin={isAdmin} onTablet={scoped && holdsSite(scope, site.id)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
