import { RefreshCw } from 'lucide-react';
import type { FieldChange } from '../../domain/record-edit';
import { Button } from '../../ui/button';

export const CHANGED_ELSEWHERE = 'Changed on another device';
export const USE_NEW_VALUES = 'Use the new values';

/**
 * Above an open edit form whose record changed on another device (S18): the fields and their new
 * values. The form keeps what the person typed; "Use the new values" takes them for the fields
 * they have not touched, and a field they changed too keeps their value, which the save sends
 * and the Sync page records as a conflict (S4). Nothing shows while nothing changed.
 */
export function ChangedElsewhereNotice({ changes, touched, onTake }: { changes: FieldChange[]; touched: readonly string[]; onTake: () => void }) {
  if (changes.length === 0) return null;
  const takeable = changes.some((c) => !touched.includes(c.key));
  return (
    <div role="status" data-testid="changed-elsewhere" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
      <p className="flex items-center gap-2 text-sm font-semibold">
        <RefreshCw aria-hidden="true" className="h-4 w-4 shrink-0" />
        {CHANGED_ELSEWHERE}
      </p>
      <ul className="mt-2 space-y-1 text-sm">
        {changes.map((c) => (
          <li key={c.key}>
            {c.label}: <span className="font-medium">{c.value}</span>
            {touched.includes(c.key) && <span className="text-amber-800"> (you changed this too: saving keeps yours)</span>}
          </li>
        ))}
      </ul>
      {takeable && (
        <Button variant="secondary" className="mt-3" onClick={onTake}>
          {USE_NEW_VALUES}
        </Button>
      )}
    </div>
  );
}
