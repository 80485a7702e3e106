import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * An in-app link through the router. `href` is an app URL such as '/cohortdetail?id=c1' (built by
 * app/paths `pageUrl`); ui/ knows no page names, so the caller builds it.
 */
export function PageLink({ href, children, className, ...rest }: { href: string; children: ReactNode; className?: string; 'aria-label'?: string }) {
  const [to, query = ''] = href.split('?', 2);
  const search = Object.fromEntries(new URLSearchParams(query));
  return (
    <Link to={to} search={search} className={className} {...rest}>
      {children}
    </Link>
  );
}
