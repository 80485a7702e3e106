/**
 * Issue #22: the tablet's side of the scope rules (shared/scope-rules.ts holds the rules both sides
 * agree on; the engine runs them in scoped-pull.ts, scope-mirror.ts): where the scope and the
 * person's choice are kept, pins, and how `$in` filters are cut to fit a URL.
 */
import type { EntityName } from '../../../shared/entities';
import type { ScopeKey } from '../../../shared/scope-rules';

export * from '../../../shared/scope-rules';

/** meta key of the person's choice on "Sites on this tablet" (sites added to and removed from their default). */
export const SITE_CHOICE_KEY = 'siteChoice';
/** meta key of the scope the engine derived last (what the screens say they count). */
export const TABLET_SCOPE_KEY = 'tabletScope';

/**
 * A record kept beyond the scope: opened online (until `until`), or this tablet's own unenrolled
 * intake. Keyed by [entity+id+reason]: one record may hold both.
 */
export interface PinRow {
  entity: EntityName;
  id: string;
  reason: 'opened' | 'own';
  /** Epoch ms after which an 'opened' pin lapses; null for 'own' (kept while it has no enrollment). */
  until: number | null;
}

/** Long enough to work with an opened participant offline later that day (PowerSync's subscription TTL). */
export const OPENED_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Issue #22.5: Node refuses request URLs over 16 KB (about 340 ids in one `$in`). Each chunk's ids,
 * JSON-quoted and URL-encoded, stay under `maxChars`, leaving room for the rest of the query.
 */
export const MAX_IN_CHARS = 12_000;

export function chunkIds(ids: readonly string[], maxChars = MAX_IN_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const id of ids) {
    const cost = encodeURIComponent(JSON.stringify(id)).length + 3; // the comma, encoded
    if (chunk.length > 0 && size + cost > maxChars) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(id);
    size += cost;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** One filter per chunk of each key: `{field: {$in: ids}}`, plus `extra` (the cursor bound). */
export function keyFilters(keys: readonly ScopeKey[], extra: Record<string, unknown> = {}, maxChars = MAX_IN_CHARS): Array<Record<string, unknown>> {
  return keys.flatMap((k) => chunkIds(k.ids, maxChars).map((ids) => ({ ...extra, [k.field]: { $in: ids } })));
}
