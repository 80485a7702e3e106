import type { ReactNode } from 'react';
import { CloudOff, MapPin } from 'lucide-react';
import type { TabletScope } from '../../data/queries/scope';
import { SYNC_PATH } from '../../pwa/sync-path';
import { buttonClass } from '../../ui/button';
import { PageLink } from '../../ui/page-link';

/**
 * Issue #22.2 and .4: a tablet holds only some sites' cohorts, so a screen must never present an
 * absence that comes from the scope as real ('… not found', 'No cohorts …', a 0). These are the
 * shared words and the way to change what the tablet holds (Sync → Sites on this tablet).
 */
export const NOT_ON_TABLET = 'Not on this tablet';

/** Whether the tablet holds only some sites (a scope derived for this user, not every site). */
export function isScoped(scope: TabletScope | null | undefined): scope is TabletScope {
  return !!scope && !scope.all;
}

/**
 * Whether the tablet holds this site's cohorts, sessions and enrollments. With no scope (none
 * derived yet, or the engine mirrors everything) or every site held, it does.
 */
export function holdsSite(scope: TabletScope | null | undefined, siteId: string | null | undefined): boolean {
  if (!isScoped(scope)) return true;
  return !!siteId && scope.siteIds.includes(siteId);
}

/** The link to the Sync page, where "Sites on this tablet" adds or removes sites. */
export function SitesOnTabletLink({ button = false, children }: { button?: boolean; children?: ReactNode }) {
  return (
    <PageLink
      href={SYNC_PATH}
      className={button ? buttonClass('primary') : 'font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900'}
    >
      {button && <MapPin className="h-4 w-4" aria-hidden="true" />}
      {children ?? 'Sync → Sites on this tablet'}
    </PageLink>
  );
}

/**
 * A detail page whose record is beyond the tablet's sites: 'Not on this tablet', what it means and
 * what to do, the link to the Sync page and the way back — instead of '… not found'. With `retry`
 * (the server could not be asked), 'Try again' comes first.
 */
export function NotOnTabletState({ message, back, retry }: { message: ReactNode; back: ReactNode; retry?: () => void }) {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <CloudOff aria-hidden="true" className="mx-auto mb-3 h-8 w-8 text-slate-400" />
      <h1 className="text-2xl font-bold text-slate-900">{NOT_ON_TABLET}</h1>
      <p className="mt-3 text-slate-700">{message}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {retry && (
          <button type="button" className={buttonClass('primary')} onClick={retry}>
            Try again
          </button>
        )}
        <SitesOnTabletLink button>Sites on this tablet</SitesOnTabletLink>
        {back}
      </div>
    </div>
  );
}

/** What a heading or figure covers ('at your 3 sites'), set beside it in small type; nothing when empty. */
export function Covers({ phrase, className }: { phrase: string; className?: string }) {
  if (!phrase) return null;
  // The space keeps a heading's name readable ('Cohorts (3) at your 3 sites').
  return (
    <>
      {' '}
      <span className={className ?? 'ml-1 text-sm font-normal text-slate-500'} data-testid="scope-covers">
        {phrase}
      </span>
    </>
  );
}
