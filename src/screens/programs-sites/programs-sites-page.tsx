import { createProgram } from '../../data/commands/programs';
import { createSite } from '../../data/commands/sites';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useKeyedPrograms } from '../../data/queries/programs';
import { useTabletScope } from '../../data/queries/scope';
import { useKeyedSites } from '../../data/queries/sites';
import { useIsAdmin } from '../../shell-api/current-user';
import { PageHeader } from '../../ui/page-header';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { ProgramForm } from '../parts/program-form';
import { holdsSite, isScoped, SitesOnTabletLink } from '../parts/scope-absence';
import { ManagedColumn, type ColumnStrings } from './managed-column';
import { ProgramCard } from './program-card';
import { SiteCard } from './site-card';
import { SiteForm } from './site-form';

const PROGRAMS: ColumnStrings = {
  heading: 'Programs',
  add: 'Add Program',
  formTitle: 'New Program',
  submit: 'Create Program',
  created: 'Program created successfully!',
  createFailed: 'Failed to create program. Please try again.',
  loading: 'Loading programs',
  emptyTitle: 'No programs yet',
  emptyDescription: 'Create your first program to get started',
};

const SITES: ColumnStrings = {
  heading: 'Sites',
  add: 'Add Site',
  formTitle: 'New Site',
  submit: 'Create Site',
  created: 'Site created successfully!',
  createFailed: 'Failed to create site. Please try again.',
  loading: 'Loading sites',
  emptyTitle: 'No sites yet',
  emptyDescription: 'Create your first site to get started',
};

/**
 * Spec 2.11: programs and sites side by side (stacked below the lg breakpoint). During the first
 * sync the columns keep their skeletons (offline: what arrived), never 'Create your first program'.
 * On a tablet holding some sites (issue #22), the sites it holds are marked 'On this tablet'.
 */
export function ProgramsSitesPage() {
  const readiness = useFirstSync(PAGE_NEEDS.ProgramsSites);
  const firstSync = readiness.state === 'ready' ? 'ready' : readiness.state === 'incomplete' ? 'partial' : 'loading';
  const programs = useKeyedPrograms();
  const sites = useKeyedSites();
  const scope = useTabletScope();
  const scoped = isScoped(scope);
  const isAdmin = useIsAdmin();
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Programs & Sites" subtitle="Manage programs and facility locations" />
      <FirstSyncNotice readiness={readiness} />
      <div className="grid gap-8 lg:grid-cols-2">
        <ManagedColumn
          id="programs"
          strings={PROGRAMS}
          rows={programs}
          isAdmin={isAdmin}
          firstSync={firstSync}
          create={createProgram}
          renderForm={(form) => <ProgramForm initial={{ program_name: '', description: '', active: true }} {...form} />}
          renderCard={(program) => <ProgramCard program={program} isAdmin={isAdmin} />}
        />
        <ManagedColumn
          id="sites"
          strings={SITES}
          rows={sites}
          isAdmin={isAdmin}
          firstSync={firstSync}
          create={createSite}
          renderForm={(form) => <SiteForm initial={{ site_name: '', site_type: 'prison', active: true }} {...form} />}
          renderCard={(site) => <SiteCard site={site} isAdmin={isAdmin} onTablet={scoped && holdsSite(scope, site.id)} />}
          intro={
            scoped && (
              <p className="mb-4 text-sm text-slate-600" data-testid="sites-scope">
                The cohorts and participants of the sites marked ‘On this tablet’ are here; change them under <SitesOnTabletLink />.
              </p>
            )
          }
        />
      </div>
    </div>
  );
}
