import { Wand2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../ui/button';
import { CONTROL_CLASS } from '../../ui/field';

/**
 * Cohort Code * with 'Generate' (spec 2.9); `onGenerate` is null until program, site and start date
 * are set. `error` replaces the hint (issue #12.3: a code another cohort uses).
 */
export function CohortCodeField({
  value,
  onChange,
  onGenerate,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  onGenerate: (() => void) | null;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="sm:col-span-2">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Cohort Code *
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="e.g. FLB-SQP-2025Q1"
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          className={CONTROL_CLASS}
        />
        <Button
          variant="secondary"
          onClick={onGenerate ?? undefined}
          disabled={!onGenerate}
          title={onGenerate ? undefined : 'Choose a program, a site and a start date first'}
        >
          <Wand2 className="h-4 w-4" aria-hidden="true" />
          Generate
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          Unique identifier for this cohort
        </p>
      )}
    </div>
  );
}
