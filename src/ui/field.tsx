import clsx from 'clsx';
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

const CONTROL =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-400 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 disabled:bg-slate-100';

/**
 * One height for every single-line control (issue #12.10: selects rendered 36 px beside 40 px
 * inputs). 40 px is also the smallest comfortable touch target on a tablet. Exported for the few
 * controls built outside these fields (the cohort code input, list filters).
 */
export const FIELD_HEIGHT = 'h-10';
export const CONTROL_CLASS = `${CONTROL} ${FIELD_HEIGHT}`;

interface FieldShell {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
}

/** Label + control + hint/error, wired with ids so every input is labelled and described. */
function Shell({ id, label, hint, error, className, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function described(id: string, hint?: ReactNode, error?: ReactNode) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

export function TextField({ label, hint, error, className, id: given, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} hint={hint} error={error} className={className}>
      <input id={id} className={CONTROL_CLASS} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...input} />
    </Shell>
  );
}

export function TextAreaField({ label, hint, error, className, id: given, ...input }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} hint={hint} error={error} className={className}>
      <textarea id={id} className={CONTROL} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...input} />
    </Shell>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({ label, hint, error, className, id: given, options, placeholder, ...select }: FieldShell & SelectHTMLAttributes<HTMLSelectElement> & { options: Option[]; placeholder?: string }) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} hint={hint} error={error} className={className}>
      <select id={id} className={CONTROL_CLASS} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

export function CheckboxField({ label, className, id: given, ...input }: { label: ReactNode; className?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const id = given ?? auto;
  // The whole row is the label (issue #23.9): on a tablet a tap anywhere on its 44 px ticks the
  // box, which alone was 16 px.
  return (
    <label htmlFor={id} className={clsx('flex items-center gap-2 text-sm font-medium text-slate-700 touch:min-h-11 touch:gap-3', className)}>
      <input id={id} type="checkbox" className="h-4 w-4 shrink-0 rounded border-slate-300 text-blue-700 focus:ring-blue-600 touch:h-5 touch:w-5" {...input} />
      <span>{label}</span>
    </label>
  );
}

/** The one section-title style of every form (issue #12.10). */
export const SECTION_TITLE = 'text-lg font-semibold text-slate-900';

/**
 * A titled group of fields in a form (Personal Information, Custody Information, …). The legend
 * floats inside the card (a plain legend sits on the fieldset's border — issue #12.10) and stays
 * the fieldset's accessible name.
 */
export function FormSection({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <legend className={`float-left mb-4 w-full ${SECTION_TITLE}`}>{title}</legend>
      <div className="clear-both grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}
