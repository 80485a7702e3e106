import type { ReactNode } from 'react';
import { Card } from './card';

/** A figure with its label and subtitle (Dashboard cards, Quick Stats). */
export function StatCard({ label, value, subtitle, icon }: { label: ReactNode; value: ReactNode; subtitle?: ReactNode; icon?: ReactNode }) {
  return (
    <Card className="h-full p-5 transition-shadow hover:shadow-md">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-600">{label}</p>
          <p className="mt-1 text-3xl font-bold text-slate-900">{value}</p>
          {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
        </div>
        {icon && <div className="rounded-lg bg-blue-50 p-2 text-blue-700">{icon}</div>}
      </div>
    </Card>
  );
}

/** A small label/value pair for quick-stat lists. */
export function StatRow({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <div className="flex items-center justify-between border-b border-slate-100 py-2 last:border-0">
      <span className="text-sm text-slate-600">{label}</span>
      <span className="text-lg font-semibold text-slate-900">{value}</span>
    </div>
  );
}
