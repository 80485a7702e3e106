/**
 * Where the login page and logout may send the browser: only this origin (relative paths or an
 * absolute URL with the same origin). Anything else falls back to '/', so a sign-in code is never
 * handed to another site (no open redirect).
 */
export function safeTarget(fromUrl: string | undefined | null, origin: string): URL {
  const fallback = new URL('/', origin);
  if (!fromUrl || fromUrl.length > 4096) return fallback;
  // '//evil.example' and '/\evil.example' are protocol-relative to browsers.
  if (/^[/\\]{2}/.test(fromUrl) || /^\/\\/.test(fromUrl)) return fallback;
  let url: URL;
  try {
    url = new URL(fromUrl, origin);
  } catch {
    return fallback;
  }
  return url.origin === origin && (url.protocol === 'http:' || url.protocol === 'https:') ? url : fallback;
}

/**
 * from_url plus ?code=<one-time code>, keeping its other parameters and hash. Any access_token or
 * code already in from_url is dropped: the redirect of the sign-in page never carries a token.
 */
export function withCode(target: URL, code: string): string {
  const url = new URL(target.href);
  url.searchParams.delete('access_token');
  url.searchParams.set('code', code);
  return url.href;
}
