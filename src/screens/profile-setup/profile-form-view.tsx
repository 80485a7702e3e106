import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { User } from '../../../shared/entities';
import { submitCoachProfile } from '../../data/commands/profile';
import { Button } from '../../ui/button';
import { FormSection, SelectField, TextAreaField, TextField } from '../../ui/field';
import { useCommand } from '../parts/use-command';
import {
  COACH_TYPES,
  initialProfileForm,
  problemSummary,
  toProfileFields,
  validateProfileForm,
  type ProfileFormErrors,
  type ProfileFormValues,
} from './profile-form';

/** The coach profile form: the access request of spec.md 2.14. */
export function ProfileFormView({ user, onSubmitted }: { user: User; onSubmitted: (user: User) => void }) {
  const [values, setValues] = useState<ProfileFormValues>(() => initialProfileForm(user));
  const [errors, setErrors] = useState<ProfileFormErrors>({});
  // Saved locally and queued (works offline); the cached user turns pending at once.
  const submit = useCommand((data, fields: ReturnType<typeof toProfileFields>) => submitCoachProfile(data, fields), {
    success: 'Profile submitted! Waiting for admin approval.',
    failure: 'Failed to submit profile. Please try again.',
    onSuccess: (saved) => onSubmitted({ ...user, ...saved }),
  });
  const pending = submit.pending;
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped on a refused submit: once the errors are rendered, focus the first field to fix
  // (on a tablet it may be off-screen).
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const field = <K extends keyof ProfileFormValues>(name: K) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    const found = validateProfileForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const problem = problemSummary(found);
      if (problem) toast.error(problem);
      setRefusals((n) => n + 1);
      return;
    }
    void submit.run(toProfileFields(values));
  }

  const firstName = user.full_name?.split(' ')[0];
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{firstName ? `Welcome, ${firstName}!` : 'Welcome!'}</h1>
        <p className="mt-1 text-slate-600">Complete your coach profile to request access</p>
        {problemSummary(errors) && (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {problemSummary(errors)}
          </p>
        )}
      </header>

      <FormSection title="Personal Information">
        <SelectField label="Coach Type *" options={COACH_TYPES} aria-required="true" {...field('coach_type')} />
        <TextField label="Phone Number *" type="tel" autoComplete="tel" aria-required="true" {...field('phone')} />
        <TextField label="Organization / Facility *" aria-required="true" {...field('organization')} />
        <TextField label="Years of Experience" type="number" min={0} step={1} inputMode="numeric" {...field('years_experience')} />
        <TextField
          label="LinkedIn Profile"
          type="url"
          placeholder="https://linkedin.com/in/…"
          className="sm:col-span-2"
          {...field('linkedin_url')}
        />
      </FormSection>

      <FormSection title="Professional Background">
        <TextAreaField label="Areas of Expertise" rows={2} className="sm:col-span-2" {...field('areas_of_expertise')} />
        <TextAreaField label="Professional Background *" rows={4} aria-required="true" className="sm:col-span-2" {...field('bio')} />
        <TextAreaField label="Certifications & Training" rows={3} className="sm:col-span-2" {...field('certifications')} />
      </FormSection>

      <FormSection title="Emergency Contact">
        <TextField label="Emergency Contact Name" autoComplete="off" {...field('emergency_contact_name')} />
        <TextField label="Emergency Contact Phone" type="tel" autoComplete="off" {...field('emergency_contact_phone')} />
      </FormSection>

      <div className="flex flex-col items-start gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Submitting...' : 'Request Access'}
        </Button>
        <p className="text-sm text-slate-600">Your profile will be reviewed by an administrator before you can access the database.</p>
      </div>
    </form>
  );
}
