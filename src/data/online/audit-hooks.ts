/**
 * Issue #26: the screens' hooks over the audit reads (audit.ts): the Audit page's list and a
 * record's History. Online only: offline they say so (`offline`), and they load again when the
 * browser says the connection is back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataContext } from '../provider';
import { OfflineError } from '../errors';
import type { AuditFilters } from '../../domain/audit-event';
import { listAuditEvents, type AuditEventView } from './audit';

export interface AuditList {
  /** undefined while the first page loads (or before any answer while offline). */
  events: AuditEventView[] | undefined;
  /** The server has older events for this filter. */
  hasMore: boolean;
  /** A next page is on its way. */
  loadingMore: boolean;
  /** No connection: the browser says so, or no answer came. */
  offline: boolean;
  /** The server refused (403: not an administrator). */
  forbidden: boolean;
  /** The server's message when it answered with another error. */
  error: string | null;
  /** The next page, appended (nothing when there is none or one is on its way). */
  loadMore(): Promise<void>;
}

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

interface State {
  events: AuditEventView[] | undefined;
  cursor: string | null;
  offline: boolean;
  forbidden: boolean;
  error: string | null;
}

const START: State = { events: undefined, cursor: null, offline: false, forbidden: false, error: null };

/**
 * Events matching `filters`, newest first: `pageSize` at first, `morePageSize` for each "more".
 * A change of filters starts again from the newest; an answer to an older filter is ignored.
 */
export function useAuditEvents(filters: Partial<AuditFilters>, options: { enabled: boolean; pageSize: number; morePageSize?: number }): AuditList {
  const ctx = useDataContext();
  const { enabled, pageSize } = options;
  const morePageSize = options.morePageSize ?? pageSize;
  const key = JSON.stringify(filters);
  const [state, setState] = useState<State>(() => ({ ...START, offline: browserOffline() }));
  const [loadingMore, setLoadingMore] = useState(false);
  // Each load's number: only the latest may change the state (filters typed quickly, a reconnect).
  const latest = useRef(0);
  const current = useRef(state);
  current.current = state;

  const fail = useCallback((error: unknown): Partial<State> => {
    if (error instanceof OfflineError) return { offline: true, error: null };
    const status = (error as { status?: number } | null)?.status;
    if (status === 403) return { forbidden: true, offline: false, error: null };
    return { offline: false, error: (error as Error)?.message || 'Failed to load the audit trail' };
  }, []);

  const loadFirst = useCallback(() => {
    const call = ++latest.current;
    setLoadingMore(false);
    setState((s) => ({ ...START, offline: s.offline && browserOffline() }));
    listAuditEvents(ctx, JSON.parse(key) as Partial<AuditFilters>, { limit: pageSize }).then(
      (page) => {
        if (call === latest.current) setState({ ...START, events: page.events, cursor: page.cursor });
      },
      (error: unknown) => {
        if (call === latest.current) setState((s) => ({ ...s, ...fail(error) }));
      },
    );
  }, [ctx, key, pageSize, fail]);

  useEffect(() => {
    if (!enabled) return;
    loadFirst();
    const goOnline = () => loadFirst();
    const goOffline = () => {
      latest.current++; // an answer still on its way no longer decides the list
      setLoadingMore(false);
      setState((s) => ({ ...s, offline: true }));
    };
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
    };
  }, [enabled, loadFirst]);

  const loadMore = useCallback(async () => {
    const { cursor, events } = current.current;
    if (!cursor || !events || loadingMore) return;
    const call = latest.current;
    setLoadingMore(true);
    try {
      const page = await listAuditEvents(ctx, {}, { cursor, limit: morePageSize });
      if (call !== latest.current) return;
      // An event the first page already showed is not shown twice (the cursor is an offset).
      setState((s) => {
        const seen = new Set((s.events ?? []).map((e) => e.id));
        return { ...s, events: [...(s.events ?? []), ...page.events.filter((e) => !seen.has(e.id))], cursor: page.cursor, error: null, offline: false };
      });
    } catch (error) {
      if (call === latest.current) setState((s) => ({ ...s, ...fail(error) }));
    } finally {
      if (call === latest.current) setLoadingMore(false);
    }
  }, [ctx, morePageSize, loadingMore, fail]);

  return {
    events: state.events,
    hasMore: state.cursor !== null,
    loadingMore,
    offline: state.offline,
    forbidden: state.forbidden,
    error: state.error,
    loadMore,
  };
}
