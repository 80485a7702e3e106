import { Search } from 'lucide-react';

const CONTROL =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 ' +
  'focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30';

/**
 * A list page's search box and status select (Participants, spec 2.5; Cohorts, issue #12.8): one
 * bar, 40 px controls, the select beside the box from the small breakpoint on.
 */
export function ListFilters<S extends string>({
  searchLabel,
  placeholder,
  query,
  onQuery,
  statusLabel,
  status,
  options,
  onStatus,
  className,
}: {
  searchLabel: string;
  placeholder: string;
  query: string;
  onQuery: (q: string) => void;
  statusLabel: string;
  status: S;
  options: readonly { value: S; label: string }[];
  onStatus: (s: S) => void;
  className?: string;
}) {
  return (
    <div role="search" className={`flex flex-col gap-3 sm:flex-row ${className ?? ''}`}>
      <div className="relative flex-1">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
        <input
          type="search"
          autoComplete="off"
          aria-label={searchLabel}
          placeholder={placeholder}
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          className={`${CONTROL} pr-3 pl-9`}
        />
      </div>
      <select aria-label={statusLabel} value={status} onChange={(e) => onStatus(e.target.value as S)} className={`${CONTROL} px-3 sm:w-48`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
