import { coachLabel, type Coach } from '../../data/queries/users';
import { FormSection, SelectField } from '../../ui/field';

/** Coaching Staff (spec 2.9): the Lead Coach select lists every user; the value kept is the email. */
export function CoachingStaffSection({ users, value, onChange }: { users: Coach[] | undefined; value: string; onChange: (email: string) => void }) {
  return (
    <FormSection title="Coaching Staff">
      <SelectField
        label="Lead Coach"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={users ? 'Select lead coach' : 'Loading coaches...'}
        options={(users ?? []).map((u) => ({ value: u.email, label: coachLabel(u) }))}
        className="sm:col-span-2"
      />
    </FormSection>
  );
}
