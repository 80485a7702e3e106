import { Logo } from '../../ui/logo';

export const SIDEBAR_TITLE = 'Participant Management System';

/** The sidebar's heading: the product logo and 'Participant Management System'. */
export function SidebarTitle({ collapsed = false, as: Tag = 'p' }: { collapsed?: boolean; as?: 'p' | 'h2' }) {
  return (
    <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-4">
      <Logo className="h-8 w-8 shrink-0" />
      <Tag className={collapsed ? 'sr-only' : 'text-sm font-semibold leading-tight text-slate-900'}>{SIDEBAR_TITLE}</Tag>
    </div>
  );
}
