import { Dialog, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import { useState, type FormEvent } from 'react';
import type { Cohort, Session } from '../../../shared/entities';
import { dayOf } from '../../domain/attendance';
import { generateWeeklySessions } from '../../data/commands/sessions';
import { formatDate, formatDateTime } from '../../domain/format';
import { checkWeeklyDraft, WEEKDAYS, weeklyDefaults, type WeeklyDraft, type WeeklyDraftErrors } from '../../domain/session-form';
import { planWeeklySessions } from '../../domain/session-plan';
import { SelectField, TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';
import { useCommand } from '../parts/use-command';

/**
 * Issue #23.5 "Generate weekly sessions": one weekday at one time, a count, from the cohort's start
 * date (or today once it has passed) until its end date; the dates show before anything is
 * created, numbered after the cohort's sessions (`firstNumber`). Rendered only while open, so each
 * opening starts from the defaults.
 */
export function WeeklySessionsDialog({
  cohort,
  firstNumber,
  existing,
  onClose,
}: {
  cohort: Cohort;
  firstNumber: number;
  /** The cohort's sessions: a planned day that already has one is pointed out before anything is made. */
  existing: readonly Session[];
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<WeeklyDraft>(() => weeklyDefaults(cohort, new Date()));
  const [errors, setErrors] = useState<WeeklyDraftErrors>({});
  const generate = useCommand((data, plan: Parameters<typeof generateWeeklySessions>[2]) => generateWeeklySessions(data, cohort.id, plan), {
    success: (made) => (made.length === 1 ? '1 session created successfully!' : `${made.length} sessions created successfully!`),
    failure: 'Failed to create sessions. Please try again.',
    onSuccess: onClose,
  });
  const problems = checkWeeklyDraft(draft);
  const plan = { startDate: draft.startDate, endDate: cohort.end_date, weekday: Number(draft.weekday), time: draft.time, count: Number(draft.count), firstNumber, topic: draft.topic };
  // Cheap (52 dates at most): planned afresh each render, so the preview follows every keystroke.
  const planned = Object.keys(problems).length ? [] : planWeeklySessions(plan);
  const taken = new Map<string, number | null | undefined>();
  for (const s of existing) {
    const day = dayOf(s.scheduled_at);
    if (day && !taken.has(day)) taken.set(day, s.session_number);
  }
  const clashes = planned.filter((s) => taken.has(dayOf(s.scheduled_at) ?? ''));
  const set = (field: keyof WeeklyDraft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [field]: e.target.value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    setErrors(problems);
    if (Object.keys(problems).length === 0 && planned.length > 0) void generate.run(plan);
  }

  const wanted = Number(draft.count);
  return (
    <Dialog open onClose={() => !generate.pending && onClose()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="flex max-h-full w-full max-w-lg flex-col rounded-xl bg-white shadow-xl">
          <form onSubmit={submit} noValidate className="flex min-h-0 flex-col">
            <div className="min-h-0 overflow-y-auto p-6">
              <DialogTitle className="text-lg font-semibold text-slate-900">Generate weekly sessions</DialogTitle>
              <Description className="mt-1 text-sm text-slate-600">
                One session a week for {cohort.cohort_code || 'this cohort'}
                {cohort.end_date ? `, until its end date (${formatDate(cohort.end_date)})` : ''}, numbered from Session {firstNumber}.
              </Description>
              <div className="mt-4 grid gap-3 sm:grid-cols-2">
                <TextField label="Starting from *" type="date" value={draft.startDate} onChange={set('startDate')} error={errors.startDate} />
                <SelectField label="Day of the week *" value={draft.weekday} onChange={set('weekday')} options={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))} />
                <TextField label="Time *" type="time" value={draft.time} onChange={set('time')} error={errors.time} />
                <TextField label="Number of sessions *" type="number" min={1} max={52} inputMode="numeric" value={draft.count} onChange={set('count')} error={errors.count} />
                <TextField label="Topic" className="sm:col-span-2" value={draft.topic} onChange={set('topic')} hint="Optional: the same topic on every session; edit each one later." />
              </div>
              <section aria-label="Preview" className="mt-4">
                <h3 className="text-sm font-semibold text-slate-700">{planned.length === 0 ? 'Preview' : `Preview: ${planned.length === 1 ? '1 session' : `${planned.length} sessions`}`}</h3>
                {planned.length === 0 ? (
                  <p className="mt-1 text-sm text-slate-500">
                    {Object.keys(problems).length ? 'Fill in the fields to see the dates.' : 'No session falls on that day between the dates given.'}
                  </p>
                ) : (
                  <>
                    {planned.length < wanted && (
                      <p className="mt-1 text-sm text-amber-900">
                        Only {planned.length} of {wanted} fit before the end date ({formatDate(cohort.end_date)}).
                      </p>
                    )}
                    {clashes.length > 0 && (
                      <p role="status" className="mt-1 text-sm text-amber-900">
                        {clashes.length === 1 ? '1 of these days already has a session' : `${clashes.length} of these days already have a session`} of this
                        cohort (marked below). Choose another day or start date, or create them anyway.
                      </p>
                    )}
                    <ol className="mt-2 max-h-48 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 text-sm">
                      {planned.map((s) => {
                        const day = dayOf(s.scheduled_at) ?? '';
                        return (
                          <li key={s.session_number} className="flex flex-wrap justify-between gap-x-3 px-3 py-1.5">
                            <span className="font-medium text-slate-900">Session {s.session_number}</span>
                            <span className="text-slate-600">
                              {WEEKDAYS[new Date(s.scheduled_at).getDay()].slice(0, 3)}, {formatDateTime(s.scheduled_at)}
                            </span>
                            {taken.has(day) && (
                              <span className="basis-full text-amber-900">Same day as Session {taken.get(day) ?? ''}</span>
                            )}
                          </li>
                        );
                      })}
                    </ol>
                  </>
                )}
              </section>
            </div>
            <div className="border-t border-slate-100 px-6 py-4">
              <FormActions
                canSubmit={planned.length > 0}
                pending={generate.pending}
                labels={{ submit: planned.length === 1 ? 'Create 1 session' : `Create ${planned.length} sessions`, pending: 'Creating...' }}
                onCancel={onClose}
              />
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
