import { useId, useMemo, useState } from 'react';
import { MapPin, Search } from 'lucide-react';
import { useIsAdmin } from '../../shell-api/current-user';
import { keepDefaultSites, setSitesOnTablet } from '../../data/commands/scope';
import { chosenSites, useSiteChoice, useTabletScope } from '../../data/queries/scope';
import { useSites } from '../../data/queries/sites';
import type { Site } from '../../../shared/entities';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Panel } from '../../ui/card';
import { CONTROL_CLASS } from '../../ui/field';
import { Skeleton } from '../../ui/skeleton';
import { useCommand } from '../parts/use-command';

/** What a person needs to know about the sites left off (issue #22.1–2). */
export const OTHER_SITES_MEANING = 'Participants, cohorts and sessions of the other sites stay on the server and can still be found online.';

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** The known sites' ids among `ids` (a choice may name a site the server no longer has). */
function known(ids: Iterable<string>, sites: readonly Site[]): Set<string> {
  const want = new Set(ids);
  return new Set(sites.filter((s) => want.has(s.id)).map((s) => s.id));
}

function matches(site: Site, text: string): boolean {
  if (!text) return true;
  return [site.site_name, site.city, site.county, site.region].some((v) => v?.toLowerCase().includes(text));
}

function where(site: Site): string {
  return [site.city, site.county].filter(Boolean).join(', ');
}

/**
 * Issue #22.1, "Sites on this tablet": the sites whose participants, cohorts and sessions this
 * tablet holds. A coach's default is the sites of their cohorts (marked 'Your cohorts'); an
 * administrator's is every site. Ticking and saving stores the choice relative to that default;
 * the engine brings the new sites in (and lets the others go) at once when online.
 */
export function SitesOnTabletPanel() {
  const admin = useIsAdmin();
  const sites = useSites();
  const scope = useTabletScope();
  const choice = useSiteChoice();
  const [draft, setDraft] = useState<ReadonlySet<string> | null>(null);
  const [filter, setFilter] = useState('');
  const uid = useId();
  const failure = 'Failed to save the sites on this tablet';
  const choose = useCommand((data, siteIds: string[]) => setSitesOnTablet(data, siteIds), {
    success: 'Sites on this tablet saved',
    failure,
    onSuccess: () => setDraft(null),
  });
  const backToDefault = useCommand((data, _everySite: boolean) => keepDefaultSites(data), {
    success: (_, everySite) => (everySite ? 'This tablet holds every site again' : 'This tablet holds your sites again'),
    failure,
    onSuccess: () => setDraft(null),
  });
  const busy = choose.pending || backToDefault.pending;

  const title = (
    <span className="flex items-center gap-2">
      <MapPin className="h-5 w-5 text-slate-500" aria-hidden="true" />
      Sites on this tablet
    </span>
  );

  const model = useMemo(() => {
    if (!sites || !scope) return null;
    const everySite = admin || scope.all;
    const allIds = sites.map((s) => s.id);
    const defaults = known(everySite ? allIds : scope.defaultSiteIds, sites);
    const saved = known(chosenSites([...defaults], choice), sites);
    const held = known(scope.all ? allIds : scope.siteIds, sites);
    return { everySite, defaults, saved, held, hasChoice: !!choice && choice.added.length + choice.removed.length > 0 };
  }, [sites, scope, choice, admin]);

  if (sites === undefined || scope === undefined || choice === undefined) {
    return (
      <Panel title={title}>
        <Skeleton className="h-10 w-2/3" />
      </Panel>
    );
  }
  if (scope === null || model === null) {
    return (
      <Panel title={title}>
        <p className="text-sm text-slate-600">This tablet&apos;s sites are known after its first sync. {OTHER_SITES_MEANING}</p>
      </Panel>
    );
  }

  const { everySite, defaults, saved, held, hasChoice } = model;
  const ticked = draft ?? saved;
  const dirty = draft !== null && !sameSet(draft, saved);
  const canRestore = hasChoice || !sameSet(ticked, defaults);
  const text = filter.trim().toLowerCase();
  const shown = sites.filter((s) => matches(s, text));
  const total = sites.length;
  const count = ticked.size;
  const everyTicked = count === total && total > 0;

  const toggle = (id: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(id);
    else next.delete(id);
    setDraft(next);
  };

  const save = () => void choose.run(sites.filter((s) => ticked.has(s.id)).map((s) => s.id));

  const restore = () => {
    // Nothing saved to undo: only the ticks made here go.
    if (!hasChoice) return setDraft(null);
    void backToDefault.run(everySite);
  };

  return (
    <Panel title={title} actions={everySite && everyTicked ? <Badge tone="blue">Every site</Badge> : undefined}>
      <p className="text-sm text-slate-600">
        {everySite
          ? "As an administrator, this tablet holds every site by default ('Every site' mode); untick the sites you do not need here."
          : 'By default this tablet holds the sites of your cohorts, marked Your cohorts; tick other sites to add them.'}{' '}
        {OTHER_SITES_MEANING}
      </p>
      <p className="mt-3 font-medium text-slate-900" aria-live="polite" data-testid="sites-count">
        {count.toLocaleString('en-US')} of {total.toLocaleString('en-US')} {total === 1 ? 'site' : 'sites'} on this tablet
      </p>
      {!dirty && !sameSet(saved, held) && (
        <p role="status" className="mt-1 text-sm text-slate-600">
          Saved. This tablet changes at the next sync.
        </p>
      )}
      <div className="relative mt-3">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
        <input
          type="search"
          autoComplete="off"
          aria-label="Filter sites"
          placeholder="Filter sites"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          className={`${CONTROL_CLASS} pl-9`}
        />
      </div>
      <div role="group" aria-label="Sites on this tablet" className="mt-3">
        {shown.length === 0 ? (
          <p className="rounded-lg border border-slate-200 px-3 py-4 text-sm text-slate-600">{total === 0 ? 'No sites yet.' : 'No sites match the filter.'}</p>
        ) : (
          <ul role="list" aria-label="Sites" className="max-h-80 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
            {shown.map((site, i) => {
              const own = !everySite && defaults.has(site.id);
              const place = where(site);
              return (
                <li key={site.id}>
                  <label className="flex min-h-10 cursor-pointer items-center gap-3 px-3 py-2 hover:bg-slate-50 touch:min-h-11">
                    <input
                      type="checkbox"
                      className="h-4 w-4 shrink-0 rounded border-slate-300 text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700"
                      checked={ticked.has(site.id)}
                      onChange={(e) => toggle(site.id, e.target.checked)}
                      aria-label={site.site_name || 'Site'}
                      aria-describedby={own ? `${uid}-own-${i}` : undefined}
                      disabled={busy}
                    />
                    <span className="min-w-0 flex-1 text-sm text-slate-900">
                      {site.site_name || 'Site'}
                      {place && <span className="ml-2 text-xs text-slate-500">{place}</span>}
                    </span>
                    {own && (
                      <span id={`${uid}-own-${i}`}>
                        <Badge tone="green">Your cohorts</Badge>
                      </span>
                    )}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button onClick={save} disabled={!dirty || busy}>
          Save
        </Button>
        <Button variant="secondary" onClick={restore} disabled={!canRestore || busy}>
          Back to my sites
        </Button>
      </div>
    </Panel>
  );
}
