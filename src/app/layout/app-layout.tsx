import { Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { shellParts } from '../screens';
import { useCurrentUser } from '../../shell-api/current-user';
import { pageOfPath, pagePath } from '../../shell-api/paths';
import { mustCompleteProfile } from '../../domain/access';
import { DesktopSidebar } from './desktop-sidebar';
import { HeaderBar } from './header-bar';
import { useSidebar } from './use-sidebar';

/**
 * Sidebar + header + the page (spec.md 2.2), and the access guard (2.3): a non-admin without an
 * approved access request is sent to ProfileSetup from every other page.
 */
export function AppLayout() {
  const user = useCurrentUser();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const sidebar = useSidebar();
  // The 404 screen (the splat route) is shown to everyone, as before it moved into the shell.
  const notFound = useRouterState({ select: (s) => s.matches.some((m) => m.routeId.endsWith('/$')) });

  if (user && mustCompleteProfile(user) && pageOfPath(pathname) !== 'ProfileSetup' && !notFound) {
    return <Navigate to={pagePath('ProfileSetup')} replace />;
  }

  return (
    <div data-app-ready className="flex min-h-screen bg-slate-50 print:block print:bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Not on paper (issue #23.6, the sign-in sheet): `contents` leaves the layout on screen as it was. */}
      <div className="contents print:hidden">
        <DesktopSidebar open={sidebar.open} />
        {/* The slide-in panel (headlessui) is its own chunk: loaded on narrow screens, preloaded elsewhere. */}
        {sidebar.isMobile && <shellParts.MobileSidebar open={sidebar.openMobile} onClose={() => sidebar.setOpenMobile(false)} />}
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="contents print:hidden">
          <HeaderBar onToggleSidebar={sidebar.toggle} sidebarExpanded={sidebar.isMobile ? sidebar.openMobile : sidebar.open} />
        </div>
        <main id="main" className="flex-1 p-4 sm:p-6 lg:p-8 print:p-0">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
