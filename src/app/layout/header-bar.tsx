import { Lock, LogOut, PanelLeft } from 'lucide-react';
import { useCurrentUser } from '../../shell-api/current-user';
import { useAuth } from '../auth/auth-context';
import { useShellSlots } from '../shell-slots';

/** The bar above every page: sidebar toggle, a status slot (sync), the user, Lock (issue #14) and Log out. */
export function HeaderBar({ onToggleSidebar, sidebarExpanded }: { onToggleSidebar: () => void; sidebarExpanded: boolean }) {
  const user = useCurrentUser();
  const { logout, lockNow } = useAuth();
  const { headerStatus } = useShellSlots();

  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/95 px-3 backdrop-blur sm:px-4">
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label="Toggle sidebar"
        aria-expanded={sidebarExpanded}
        title="Toggle sidebar (Ctrl+B)"
        className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <PanelLeft aria-hidden="true" className="h-5 w-5" />
      </button>
      <div className="ml-auto flex min-w-0 items-center gap-3">
        {headerStatus}
        {user && (
          // From 768 px up (issue #23.9: a portrait tablet hid who is signed in); the name truncates first.
          <div className="hidden min-w-0 text-right md:block">
            {user.full_name && <p className="truncate text-sm font-medium text-slate-900">{user.full_name}</p>}
            <p className="truncate text-xs text-slate-600">{user.email}</p>
          </div>
        )}
        <button
          type="button"
          onClick={lockNow}
          aria-label="Lock"
          title="Lock Passage on this tablet (your PIN opens it again)"
          className="inline-flex min-h-10 min-w-10 shrink-0 touch:min-h-11 touch:min-w-11 items-center justify-center gap-2 whitespace-nowrap rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 xl:px-3"
        >
          <Lock aria-hidden="true" className="h-4 w-4" />
          {/* The word only where the header has room (a tablet's header holds the sync status). */}
          <span className="hidden xl:inline">Lock</span>
        </button>
        <button
          type="button"
          onClick={() => void logout()}
          aria-label="Log out"
          title="Log out"
          className="inline-flex min-h-10 min-w-10 shrink-0 touch:min-h-11 touch:min-w-11 items-center justify-center gap-2 whitespace-nowrap rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 lg:px-3"
        >
          <LogOut aria-hidden="true" className="h-4 w-4" />
          {/* A portrait tablet's header (768 px beside the sidebar) has room for the icon only. */}
          <span className="hidden lg:inline">Log out</span>
        </button>
      </div>
    </header>
  );
}
