import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { X } from 'lucide-react';
import { SidebarNav } from './sidebar-nav';
import { SIDEBAR_TITLE } from './sidebar-title';
import { SIDEBAR_WIDTH_MOBILE } from './sidebar-state';
import { Logo } from '../../ui/logo';

/**
 * Under 768px the sidebar is a slide-in panel (spec.md 2.2). headlessui's Dialog traps focus,
 * closes on Escape and on a click outside, and returns focus to the header toggle.
 */
export function MobileSidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-50 md:hidden">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <DialogPanel
        transition
        style={{ width: SIDEBAR_WIDTH_MOBILE }}
        className="fixed inset-y-0 left-0 flex flex-col bg-white shadow-xl transition-transform duration-200 data-[closed]:-translate-x-full"
      >
        <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-4">
          <Logo className="h-8 w-8 shrink-0" />
          <DialogTitle className="flex-1 text-sm font-semibold leading-tight text-slate-900">{SIDEBAR_TITLE}</DialogTitle>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close sidebar"
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <div className="flex-1 overflow-y-auto p-3">
          <SidebarNav onNavigate={onClose} />
        </div>
      </DialogPanel>
    </Dialog>
  );
}
