import { PageHeader } from '../../ui/page-header';
import { ProgramsColumn } from './programs-column';
import { SitesColumn } from './sites-column';

/** Spec 2.11: programs and sites side by side (stacked below the lg breakpoint). */
export function ProgramsSitesPage() {
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Programs & Sites" subtitle="Manage programs and facility locations" />
      <div className="grid gap-8 lg:grid-cols-2">
        <ProgramsColumn />
        <SitesColumn />
      </div>
    </div>
  );
}
