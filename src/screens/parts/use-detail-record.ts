import { useFirstSync, type PageReadiness, type PageSyncState } from '../../data/queries/first-sync';
import type { EntityName } from '../../../shared/entities';

/**
 * Whether an absent record may be beyond the tablet's sites (issue #22.2): 'no' when the tablet
 * holds every record of its kind (programs, sites, or every site held), 'unknown' while that is
 * still being read, 'maybe' when the tablet holds only some sites.
 */
export type BeyondScope = 'no' | 'unknown' | 'maybe';

/** What a detail page shows for its record (undefined: loading; null: not on the tablet). */
export type DetailView<T> =
  | { show: 'loading' }
  /** Offline with the first sync cut off: it may simply not have arrived yet (issue #9.5). */
  | { show: 'not-here-yet' }
  /** The tablet holds only some sites: the record may be at another one (issue #22.2). */
  | { show: 'beyond-scope' }
  /** The spec's '… not found'. */
  | { show: 'not-found' }
  | { show: 'record'; record: T };

/**
 * The rule of the four detail pages, pure: a record is 'not found' only when the first sync is
 * complete and no scope can explain its absence (docs/design.md S15: "Screens never present a
 * scoped absence as the academy's").
 */
export function detailView<T>(record: T | null | undefined, sync: PageSyncState, beyondScope: BeyondScope = 'no'): DetailView<T> {
  if (record === undefined) return { show: 'loading' };
  if (record !== null) return { show: 'record', record };
  if (sync === 'checking' || sync === 'downloading') return { show: 'loading' };
  if (sync === 'incomplete') return { show: 'not-here-yet' };
  return withScope({ show: 'not-found' }, beyondScope);
}

/**
 * A not-found view once the scope is known: still loading while it is read, 'beyond-scope' when
 * the tablet holds only some sites. For a page that learns the scope's answer after the first view
 * (ParticipantDetail asks the server only once the tablet's own copy has no such participant).
 */
export function withScope<T>(view: DetailView<T>, beyondScope: BeyondScope): DetailView<T> {
  if (view.show !== 'not-found' || beyondScope === 'no') return view;
  return beyondScope === 'unknown' ? { show: 'loading' } : { show: 'beyond-scope' };
}

/**
 * A detail page's record with the page's first-sync readiness: `view` says what to show
 * (`DetailRecordState` shows every view but 'record'), `readiness` feeds the page's FirstSyncNotice.
 *
 *   const { view, readiness } = useDetailRecord(useSite(id), PAGE_NEEDS.SiteDetail);
 *   if (view.show !== 'record') return <DetailRecordState view={view} readiness={readiness} noun="Site" back={…} />;
 */
export function useDetailRecord<T>(
  record: T | null | undefined,
  needs: readonly EntityName[],
  beyondScope: BeyondScope = 'no',
): { view: DetailView<T>; readiness: PageReadiness } {
  const readiness = useFirstSync(needs);
  return { view: detailView(record, readiness.state, beyondScope), readiness };
}
