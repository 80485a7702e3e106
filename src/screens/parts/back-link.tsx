import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { rememberedSearch } from '../../shell-api/list-memory';
import { pagePath, type PageName } from '../../shell-api/paths';

/**
 * The link above a detail page's title back to its list (as ParticipantDetail has; issue #12.8),
 * returning to the list's last search and filters.
 */
export function BackLink({ page, label }: { page: PageName; label: string }) {
  return (
    <Link
      to={pagePath(page)}
      search={rememberedSearch(page)}
      className="mb-3 inline-flex min-h-10 items-center gap-1 touch:min-h-11 text-sm font-medium text-blue-700 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" /> {label}
    </Link>
  );
}
