/**
 * Query strings exactly as the SDK (axios 1.x) writes them (platform-contract.md 2): values are
 * URL-encoded but `: $ , [ ]` stay literal and a space becomes `+`; `undefined`/`null` are dropped.
 * Which params are dropped for being falsy is decided by the callers (entities.ts), as in the SDK.
 */
export type QueryValue = string | number | boolean | null | undefined;

function encodeValue(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

export function buildQueryString(params: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeValue(key)}=${encodeValue(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
