import type { ReactNode } from 'react';
import { Logo } from './logo';

/** Title, subtitle, optional actions; the product logo on medium and larger screens (spec 2.4, 2.5). */
export function PageHeader({ title, subtitle, actions, logo = false }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; logo?: boolean }) {
  return (
    <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
      </div>
      <div className="flex items-center gap-3">
        {actions}
        {logo && <Logo className="hidden h-12 w-12 md:block" />}
      </div>
    </header>
  );
}
