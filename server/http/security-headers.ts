/**
 * Headers on every response: what may load (CSP), no MIME sniffing, no referrer leaks; and on every
 * /api answer and every page and redirect of the sign-in flow (/login*) `Cache-Control: no-store`
 * (personal data, tokens and one-time codes must not sit in any cache).
 */
import type { MiddlewareHandler } from 'hono';

// frame-ancestors 'none': the data is about justice-involved people; no site may frame Passage
// (clickjacking). The app itself never runs inside the platform editor's iframe.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', CSP);
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  c.res.headers.set('Referrer-Policy', 'no-referrer');
  c.res.headers.set('X-Frame-Options', 'DENY');
  // An answer already no-store keeps its other directives (the event stream's no-transform).
  if (noStore(c.req.path) && !/(?:^|,)\s*no-store\s*(?:,|$)/i.test(c.res.headers.get('Cache-Control') ?? '')) c.res.headers.set('Cache-Control', 'no-store');
};

const noStore = (path: string) => path === '/api' || path.startsWith('/api/') || path === '/login' || path.startsWith('/login/');
