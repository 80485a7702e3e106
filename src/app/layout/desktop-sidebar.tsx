import clsx from 'clsx';
import { SidebarNav } from './sidebar-nav';
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON } from './sidebar-state';
import { SidebarTitle } from './sidebar-title';

/** The sidebar from 768px up: 16rem open, 3rem collapsed to icons (spec.md 2.2). */
export function DesktopSidebar({ open }: { open: boolean }) {
  return (
    <aside
      aria-label="Sidebar"
      // The toaster reads it (src/index.css): toasts stay inside an open sidebar's column.
      data-sidebar
      data-state={open ? 'expanded' : 'collapsed'}
      style={{ width: open ? SIDEBAR_WIDTH : SIDEBAR_WIDTH_ICON }}
      className={clsx('sticky top-0 hidden h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-200 md:flex')}
    >
      <SidebarTitle collapsed={!open} />
      <div className={clsx('flex-1 overflow-y-auto py-3', open ? 'px-3' : 'px-0')}>
        <SidebarNav collapsed={!open} />
      </div>
    </aside>
  );
}
