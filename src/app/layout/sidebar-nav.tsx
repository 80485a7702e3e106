import { Link, useRouterState } from '@tanstack/react-router';
import clsx from 'clsx';
import { useCurrentUser } from '../../shell-api/current-user';
import { mustCompleteProfile } from '../../domain/access';
import { pageOfPath, pagePath } from '../../shell-api/paths';
import { navItemsFor, navMatch } from './nav-items';
import { NavTooltip } from './nav-tooltip';

/** The entries of the sidebar; `collapsed` shows icons only (with tooltips). */
export function SidebarNav({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const user = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  // Issue #12.5: a user the access guard keeps on ProfileSetup (no profile, pending, rejected)
  // gets no entries: each would only bounce back to ProfileSetup.
  const items = user && mustCompleteProfile(user) ? [] : navItemsFor(isAdmin);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const current = pageOfPath(pathname);

  return (
    <nav aria-label="Main">
      <ul className="space-y-1">
        {items.map((item) => {
          const match = navMatch(item, current);
          const Icon = item.icon;
          return (
            <li key={item.page}>
              <NavTooltip label={item.label} enabled={collapsed}>
                <Link
                  to={pagePath(item.page)}
                  onClick={onNavigate}
                  aria-current={match === 'page' ? 'page' : undefined}
                  aria-label={collapsed ? item.label : undefined}
                  className={clsx(
                    'flex min-h-10 items-center gap-3 rounded-lg text-sm font-medium transition-colors touch:min-h-11',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                    collapsed ? 'justify-center px-0' : 'px-3',
                    match ? 'bg-blue-50 text-blue-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
                  )}
                >
                  <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
                  {!collapsed && <span>{item.label}</span>}
                </Link>
              </NavTooltip>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
