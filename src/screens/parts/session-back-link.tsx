import { ArrowLeft } from 'lucide-react';
import type { Cohort } from '../../../shared/entities';
import { pagePath, pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';

/**
 * Above a session's pages (TakeAttendance, SignInSheet; issue #23): back to the session's cohort,
 * named by its code, or to the Cohorts list when the cohort is not on this tablet. Styled as
 * BackLink; hidden on paper.
 */
export function SessionBackLink({ cohort }: { cohort: Pick<Cohort, 'id' | 'cohort_code'> | null }) {
  return (
    <PageLink
      href={cohort ? pageUrl('CohortDetail', cohort.id) : pagePath('Cohorts')}
      className="mb-3 inline-flex min-h-10 items-center gap-1 text-sm font-medium text-blue-700 hover:underline touch:min-h-11 print:hidden"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" /> {cohort ? cohort.cohort_code || 'Untitled Cohort' : 'Cohorts'}
    </PageLink>
  );
}

