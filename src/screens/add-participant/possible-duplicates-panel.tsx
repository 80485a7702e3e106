import { memo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { Participant } from '../../../shared/entities';
import type { DuplicateReason } from '../../domain/duplicate-candidates';
import { formatDate } from '../../domain/format';
import type { BeyondDuplicatesStatus } from '../../data/online/duplicates-beyond';
import type { DuplicatePlace } from '../../data/queries/duplicates';
import { pageUrl } from '../../shell-api/paths';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';

export interface DuplicateEntry {
  participant: Participant;
  reason: DuplicateReason;
  places: DuplicatePlace[];
  /** False for the server's matches from other sites. */
  onTablet: boolean;
}

function placeText({ cohort_code, site_name }: DuplicatePlace): string {
  return [cohort_code, site_name].filter(Boolean).join(' at ');
}

/**
 * Issue #23.7: the possible duplicates of the participant being added, inline in the form. Each
 * can be opened, or dismissed as another person; adding anyway is allowed, and the people listed
 * when it is added are recorded on it (different_person_from) with those dismissed.
 */
export const PossibleDuplicatesPanel = memo(function PossibleDuplicatesPanel({
  entries,
  beyond,
  onDifferent,
}: {
  entries: DuplicateEntry[];
  beyond: BeyondDuplicatesStatus;
  onDifferent: (id: string) => void;
}) {
  const note =
    beyond === 'searching' ? 'Checking other sites…' : beyond === 'offline' ? 'Other sites were not checked: you are offline. The server checks the CDCR number when this participant is sent.' : null;
  if (entries.length === 0) {
    return note && beyond === 'offline' ? <p className="text-sm text-slate-600">{note}</p> : null;
  }
  return (
    <section aria-labelledby="possible-duplicates-heading" className="rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="possible-duplicates-heading" className="text-lg font-semibold text-slate-900">
        Possible duplicates
      </h2>
      <p className="text-sm text-slate-700">This person may already be in the academy. Open a record to check, or say it is a different person.</p>
      <ul aria-label="Possible duplicates" className="mt-3 space-y-3">
        {entries.map((entry) => (
          <DuplicateItem key={entry.participant.id} entry={entry} onDifferent={onDifferent} />
        ))}
      </ul>
      {note && (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {note}
        </p>
      )}
    </section>
  );
});

function DuplicateItem({ entry, onDifferent }: { entry: DuplicateEntry; onDifferent: (id: string) => void }) {
  const p = entry.participant;
  const name = `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim() || 'Unnamed participant';
  const places = entry.places.map(placeText).filter(Boolean);
  return (
    <li aria-label={name} className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{name}</span>
        {!entry.onTablet && <Badge tone="amber">Not on this tablet</Badge>}
        <span className="text-sm text-amber-900">{entry.reason}</span>
      </div>
      <dl className="mt-1 flex flex-wrap gap-x-4 text-sm text-slate-700">
        {p.academy_uid && <Fact label="UID" value={p.academy_uid} />}
        {p.date_of_birth && <Fact label="DOB" value={formatDate(p.date_of_birth)} />}
        {p.cdcr_number && <Fact label="CDCR" value={p.cdcr_number} />}
        {places.length > 0 && <Fact label="Cohort" value={places.join(', ')} />}
      </dl>
      <div className="mt-2 flex flex-wrap gap-2">
        <OpenRecord id={p.id} name={name} />
        <Button variant="secondary" onClick={() => onDifferent(p.id)} aria-label={`${name}: this is a different person`}>
          This is a different person
        </Button>
      </div>
    </li>
  );
}

/**
 * "Open" leaves the form, and what the coach typed is kept nowhere (a draft of a person's details is
 * not stored on a shared tablet): ask first, so a tap meant to compare never costs the intake.
 */
function OpenRecord({ id, name }: { id: string; name: string }) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setAsking(true)} aria-label={`Open ${name}`}>
        Open
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Open ${name}?`}
        description="This leaves the form, and what you typed here is not saved. To keep it, add the participant first, or stay and compare the details listed here."
        confirmLabel="Open record"
        cancelLabel="Stay on the form"
        destructive={false}
        onCancel={() => setAsking(false)}
        onConfirm={() => void navigate({ href: pageUrl('ParticipantDetail', id) })}
      />
    </>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-1">
      <dt className="font-medium">{label}:</dt>
      <dd>{value}</dd>
    </div>
  );
}
