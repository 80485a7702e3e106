import clsx from 'clsx';

/** A pulsing placeholder block; `SkeletonCards` renders the loading counts of spec section 9. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={clsx('animate-pulse rounded-md bg-slate-200', className)} />;
}

export function SkeletonCards({ count, className, label = 'Loading' }: { count: number; className?: string; label?: string }) {
  return (
    <div role="status" aria-label={label} className={className ?? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3'}>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} data-testid="skeleton-card" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <Skeleton className="mb-3 h-5 w-2/3" />
          <Skeleton className="mb-2 h-4 w-1/2" />
          <Skeleton className="h-4 w-5/6" />
        </div>
      ))}
    </div>
  );
}
