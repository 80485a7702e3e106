import { useMemo, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { enrollParticipant } from '../../data/commands/enrollments';
import { keepOnTablet } from '../../data/online/beyond-scope';
import { useBeyondScopeSearch } from '../../data/online/beyond-scope-hooks';
import { useParticipants } from '../../data/queries/participants';
import type { Cohort, Participant } from '../../../shared/entities';
import { formatCapacity, isFull } from '../../domain/capacity';
import { buildSearchIndex, participantName, searchParticipants } from '../../domain/enrol-search';
import { todayISO } from '../../domain/format';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { TextField } from '../../ui/field';
import { useCommand } from '../parts/use-command';
import { EnrolSearchResults } from './enrol-search-results';

/**
 * The enrol panel of spec 2.10: search, pick, intake date (today by default), enrol.
 * Issue #12.2: a full cohort (active enrollments ≥ capacity, the CohortDetail reading of spec 4)
 * says so at the top, and enrolling past capacity asks first; "Enrol anyway" still enrols,
 * because coaches sometimes must. The spec is silent on capacity checks: the wording is ours.
 */
export function EnrolPanel({
  cohort,
  enrolledIds,
  activeCount,
  onClose,
}: {
  cohort: Cohort;
  enrolledIds: ReadonlySet<string>;
  activeCount: number;
  onClose: () => void;
}) {
  const cohortId = cohort.id;
  const full = isFull(activeCount, cohort.capacity);
  const [confirmingOverCapacity, setConfirmingOverCapacity] = useState(false);
  const participants = useParticipants();
  // Lower-case every name once per list change, not per keystroke (10,000 participants).
  const index = useMemo(() => buildSearchIndex(participants ?? []), [participants]);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Participant | null>(null);
  const [intakeDate, setIntakeDate] = useState(() => todayISO());
  const result = useMemo(() => searchParticipants(index, query, enrolledIds), [index, query, enrolledIds]);
  // Issue #22.2: a tablet holding only some sites also asks the server; its matches come after these.
  const beyond = useBeyondScopeSearch(query, !selected && !!participants, { mode: 'enrol' });
  const beyondResults = useMemo(() => beyond.results.filter((p) => !enrolledIds.has(p.id)), [beyond.results, enrolledIds]);

  function choose(p: Participant) {
    setSelected(p);
    setQuery(participantName(p));
  }

  /** A participant from beyond the tablet: kept on it first (a day), then chosen as usual; the enrollment is queued as any other. */
  const keep = useCommand((data, p: Participant) => keepOnTablet(data, p.id), {
    failure: 'Failed to keep the participant on this tablet. Please try again.',
    onSuccess: (kept) => (kept ? choose(kept) : toast.error('Participant not found')),
  });
  const keeping = keep.running?.[0].id ?? null;

  // The spec shows no failure for enrolling (spec.md 8); the words are ours.
  const enrolment = useCommand(
    (data, participant: Participant) => enrollParticipant(data, { participant_id: participant.id, cohort_id: cohortId, intake_date: intakeDate || todayISO() }),
    { success: 'Participant enrolled successfully!', failure: 'Failed to enroll participant. Please try again.', onSuccess: onClose },
  );
  const pending = enrolment.pending;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!selected || pending) return;
    if (full) setConfirmingOverCapacity(true);
    else enrol();
  }

  function enrol() {
    if (!selected || pending) return;
    setConfirmingOverCapacity(false);
    void enrolment.run(selected);
  }

  return (
    <form onSubmit={submit} className="mb-5 space-y-4 rounded-lg border border-blue-100 bg-blue-50/50 p-4" aria-label="Enroll a participant">
      {full && (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <strong className="font-semibold">This cohort is full</strong> ({activeCount} / {formatCapacity(cohort.capacity)} active).
          Enrolling another participant goes past its capacity.
        </p>
      )}
      <div>
        <TextField
          label="Search Participant"
          type="search"
          autoFocus
          autoComplete="off"
          placeholder="Search by name or UID..."
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setSelected(null);
          }}
        />
        {!selected && query.trim() !== '' && (
          <EnrolSearchResults
            loading={!participants}
            result={result}
            onChoose={choose}
            beyond={beyond}
            beyondResults={beyondResults}
            keeping={keeping}
            onChooseBeyond={(p) => void keep.run(p)}
          />
        )}
      </div>
      <TextField label="Intake Date" type="date" value={intakeDate} onChange={(e) => setIntakeDate(e.target.value)} className="max-w-xs" />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!selected || pending}>
          {pending ? 'Enrolling...' : 'Enroll Participant'}
        </Button>
      </div>
      <ConfirmDialog
        open={confirmingOverCapacity}
        title="This cohort is full"
        description={`${cohort.cohort_code || 'This cohort'} already has ${activeCount} active participants for ${formatCapacity(cohort.capacity)} places. Enrolling ${selected ? participantName(selected) : 'this participant'} takes it to ${activeCount + 1} / ${formatCapacity(cohort.capacity)}.`}
        confirmLabel="Enrol anyway"
        destructive={false}
        onConfirm={enrol}
        onCancel={() => setConfirmingOverCapacity(false)}
      />
    </form>
  );
}
