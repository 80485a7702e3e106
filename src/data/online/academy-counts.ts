/**
 * Issue #22.4: the whole academy's figures, asked of the server, to stand beside a tablet's scoped
 * counts ("at your 3 sites · 10,000 in the academy"). Online only, never queued, never stored:
 * `null` when offline, signed out, or the server did not answer (the screen then shows only what
 * the tablet counts). Asked at most once a minute, whichever screen asks.
 */
import { useEffect, useState } from 'react';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import type { PlatformClientLike } from '../platform-like';

export interface AcademyCounts {
  participants: number;
}

export const ACADEMY_COUNTS_REFRESH_MS = 60_000;

interface Cached {
  client: PlatformClientLike;
  at: number;
  counts: AcademyCounts | null;
}

let cached: Cached | null = null;
let inFlight: { client: PlatformClientLike; promise: Promise<AcademyCounts | null> } | null = null;

/** Tests: forget the last answer. */
export function forgetAcademyCounts(): void {
  cached = null;
  inFlight = null;
}

function offline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** The last answer of this client, when younger than a minute (a failure counts: no retry storm). */
function fresh(client: PlatformClientLike | null, now: number): Cached | null {
  return client && cached && cached.client === client && now - cached.at < ACADEMY_COUNTS_REFRESH_MS ? cached : null;
}

/** Never throws: a failure (no answer, 403, 500, a client without `count`) is `null`. */
export async function loadAcademyCounts(ctx: DataContext): Promise<AcademyCounts | null> {
  const { client, now } = ctx;
  if (!client || offline()) return null;
  const hit = fresh(client, now());
  if (hit) return hit.counts;
  if (inFlight && inFlight.client === client) return inFlight.promise;
  // Stamped when asked, so the minute's timer of the next refresh finds this answer just expired.
  const askedAt = now();
  const promise = (async (): Promise<AcademyCounts | null> => {
    let counts: AcademyCounts | null = null;
    try {
      const api = client.entities('Participant');
      const n = api.count ? await api.count() : null;
      counts = typeof n === 'number' && Number.isFinite(n) ? { participants: n } : null;
    } catch (_error) {
      counts = null;
    }
    cached = { client, at: askedAt, counts };
    return counts;
  })();
  inFlight = { client, promise };
  try {
    return await promise;
  } finally {
    if (inFlight?.promise === promise) inFlight = null;
  }
}

/**
 * The academy's figures while `enabled` (a screen passes: online, and the tablet holds only some
 * sites), refreshed every minute while mounted; `null` when not enabled, offline or failed.
 */
export function useAcademyCounts(enabled: boolean): AcademyCounts | null {
  const ctx = useDataContext();
  const [counts, setCounts] = useState<AcademyCounts | null>(() => fresh(ctx.client, ctx.now())?.counts ?? null);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const load = () => {
      void loadAcademyCounts(ctx).then(
        (c) => {
          if (live) setCounts(c);
        },
        () => {
          if (live) setCounts(null);
        },
      );
    };
    load();
    const timer = setInterval(load, ACADEMY_COUNTS_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [ctx, enabled]);

  return enabled ? counts : null;
}
