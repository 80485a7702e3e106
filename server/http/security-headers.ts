/**
 * Headers on every response: what may load (CSP), no MIME sniffing, no referrer leaks; and on every
 * /api answer `Cache-Control: no-store` (personal data and tokens must not sit in any cache).
 */
import type { MiddlewareHandler } from 'hono';

// frame-ancestors 'none': the data is about justice-involved people; no site may frame Passage
// (clickjacking). The app itself never runs inside the platform editor's iframe.
export const CSP = [
  "default-src 'self'",
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
  if (c.req.path === '/api' || c.req.path.startsWith('/api/')) c.res.headers.set('Cache-Control', 'no-store');
};
