import type { ReactNode } from 'react';
import type { Participant } from '../../../shared/entities';
import { formatDate, humanize } from '../../domain/format';
import { GENDER_OPTIONS } from '../../domain/participant-form';
import { Panel } from '../../ui/card';

/**
 * The profile in view mode (spec 2.7): the sections of AddParticipant, 'N/A' for empty values,
 * dates as 'MMM d, yyyy', custody status with the hyphen as a space, the release dates only when
 * set. Consent is the separate Consent card.
 */
export function ParticipantProfileView({ participant: p }: { participant: Participant }) {
  const gender = GENDER_OPTIONS.find((g) => g.value === p.gender)?.label ?? p.gender;
  return (
    <div className="space-y-6">
      <Panel title="Personal Information">
        <Fields>
          <Field label="UID" value={p.academy_uid} />
          <Field label="First Name" value={p.first_name} />
          <Field label="Last Name" value={p.last_name} />
          <Field label="Middle Name" value={p.middle_name} />
          <Field label="Date of Birth" value={formatDate(p.date_of_birth)} />
          <Field label="Age" value={p.age === null || p.age === undefined ? '' : String(p.age)} />
          <Field label="Gender" value={gender} />
          <Field label="Phone" value={p.phone} />
          <Field label="Email" value={p.email} />
          <Field label="Current Address" value={p.address} wide />
        </Fields>
      </Panel>
      <Panel title="Custody Information">
        <Fields>
          <Field label="Custody Status" value={humanize(p.custody_status)} capitalize />
          <Field label="CDCR Number" value={p.cdcr_number} />
          <Field label="Case Manager" value={p.case_manager} />
          {p.projected_release_date && <Field label="Projected Release" value={formatDate(p.projected_release_date, p.projected_release_date)} />}
          {p.actual_release_date && <Field label="Actual Release" value={formatDate(p.actual_release_date, p.actual_release_date)} />}
          <Field label="Address on Release" value={p.address_on_release} wide />
        </Fields>
      </Panel>
      <Panel title="Emergency Contact">
        <Fields>
          <Field label="Contact Name" value={p.emergency_contact_name} />
          <Field label="Contact Phone" value={p.emergency_contact_phone} />
          <Field label="Relationship" value={p.emergency_contact_relationship} />
        </Fields>
      </Panel>
    </div>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">{children}</dl>;
}

function Field({ label, value, wide, capitalize }: { label: string; value: string | null | undefined; wide?: boolean; capitalize?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className={`mt-0.5 break-words text-slate-900 ${capitalize ? 'capitalize' : ''}`}>{value ? value : 'N/A'}</dd>
    </div>
  );
}
