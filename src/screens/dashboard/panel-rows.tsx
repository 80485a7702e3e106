import type { ReactNode } from 'react';
import { Skeleton } from '../../ui/skeleton';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';

/** Placeholder rows while a dashboard panel loads. */
export function PanelRowsSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3">
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </div>
  );
}

/** One dashboard row: a link to the participant with a title and a detail line. */
export function ParticipantRow({ id, title, detail, aside }: { id: string; title: string; detail: ReactNode; aside?: ReactNode }) {
  return (
    <li>
      <PageLink
        href={pageUrl('ParticipantDetail', id)}
        className="flex items-center justify-between gap-3 rounded-lg px-3 py-2.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium text-slate-900">{title}</span>
          <span className="block truncate text-sm text-slate-600">{detail}</span>
        </span>
        {aside}
      </PageLink>
    </li>
  );
}
