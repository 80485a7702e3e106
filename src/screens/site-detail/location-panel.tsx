import type { Site } from '../../../shared/entities';
import { humanize } from '../../domain/format';
import { Panel } from '../../ui/card';

/** Location Details (spec 2.13): City, County, Region, Facility Type; 'Not specified' when empty. */
export function LocationPanel({ site }: { site: Site }) {
  const items: [string, string | null | undefined][] = [
    ['City', site.city],
    ['County', site.county],
    ['Region', site.region],
    ['Facility Type', site.site_type ? humanize(site.site_type) : null],
  ];
  return (
    <Panel title="Location Details" className="mb-6">
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {items.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className={value ? 'mt-0.5 text-sm capitalize text-slate-900' : 'mt-0.5 text-sm text-slate-400'}>{value || 'Not specified'}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
