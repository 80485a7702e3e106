import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { pagePath, type PageName } from '../app/paths';

/** An in-app link to a page (with `?id=` for detail pages), through the router. */
export function PageLink({ page, id, children, className, ...rest }: { page: PageName; id?: string; children: ReactNode; className?: string; 'aria-label'?: string }) {
  return (
    <Link to={pagePath(page)} search={id === undefined ? {} : { id }} className={className} {...rest}>
      {children}
    </Link>
  );
}
