import clsx from 'clsx';
import { Circle } from 'lucide-react';
import type { AttendanceStatus } from '../../../shared/entities';
import { ATTENDANCE_LABEL } from '../../domain/attendance';
import { STATUS_LOOK, UNMARKED_LOOK } from './status-look';

/** A participant's status as a word, an icon and a colour ('Not marked' before the first tap). */
export function StatusChip({ status, className }: { status: AttendanceStatus | null; className?: string }) {
  const Icon = status ? STATUS_LOOK[status].icon : Circle;
  return (
    <span
      data-status={status ?? 'unmarked'}
      className={clsx(
        'inline-flex shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-lg px-2.5 py-1.5 text-sm font-semibold ring-1 ring-inset',
        status ? STATUS_LOOK[status].solid : UNMARKED_LOOK,
        className,
      )}
    >
      <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
      {status ? ATTENDANCE_LABEL[status] : 'Not marked'}
    </span>
  );
}
