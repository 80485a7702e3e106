import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { ProgramsColumn } from './programs-column';
import { SitesColumn } from './sites-column';

/**
 * Spec 2.11: programs and sites side by side (stacked below the lg breakpoint). During the first
 * sync the columns keep their skeletons (offline: what arrived), never 'Create your first program'.
 */
export function ProgramsSitesPage() {
  const readiness = useFirstSync(PAGE_NEEDS.ProgramsSites);
  const firstSync = readiness.state === 'ready' ? 'ready' : readiness.state === 'incomplete' ? 'partial' : 'loading';
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Programs & Sites" subtitle="Manage programs and facility locations" />
      <FirstSyncNotice readiness={readiness} />
      <div className="grid gap-8 lg:grid-cols-2">
        <ProgramsColumn firstSync={firstSync} />
        <SitesColumn firstSync={firstSync} />
      </div>
    </div>
  );
}
