/**
 * Issue #22.4: what a figure counted on this tablet covers. Empty when the tablet holds every site
 * (its figures are the academy's); otherwise "at your 3 sites" (the user's own sites) or "at 4 sites".
 */
export function scopePhrase(scope: { all: boolean; siteIds: readonly string[]; defaultSiteIds: readonly string[] } | null | undefined): string {
  if (!scope || scope.all) return '';
  const n = scope.siteIds.length;
  const own = n === scope.defaultSiteIds.length && scope.siteIds.every((s) => scope.defaultSiteIds.includes(s));
  return `at ${own ? 'your ' : ''}${n.toLocaleString('en-US')} ${n === 1 ? 'site' : 'sites'}`;
}
