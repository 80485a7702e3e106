/**
 * Issue #22.4: what a figure counted on this tablet covers. Empty when the tablet holds every site
 * (its figures are the academy's); otherwise "at your 3 sites" (the user's own sites), "at 4 sites",
 * or "with no site on this tablet" (a coach with no cohort yet).
 */
export function scopePhrase(scope: { all: boolean; siteIds: readonly string[]; defaultSiteIds: readonly string[] } | null | undefined): string {
  if (!scope || scope.all) return '';
  const n = scope.siteIds.length;
  if (n === 0) return 'with no site on this tablet';
  const own = n === scope.defaultSiteIds.length && scope.siteIds.every((s) => scope.defaultSiteIds.includes(s));
  return `at ${own ? 'your ' : ''}${n.toLocaleString('en-US')} ${n === 1 ? 'site' : 'sites'}`;
}
