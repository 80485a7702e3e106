import { useMemo, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { enrollParticipant } from '../../data/commands/enrollments';
import { useParticipants } from '../../data/queries/participants';
import type { Participant } from '../../../shared/entities';
import { buildSearchIndex, participantName, searchParticipants } from '../../domain/enrol-search';
import { todayISO } from '../../domain/format';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { EnrolSearchResults } from './enrol-search-results';

/** The enrol panel of spec 2.10: search, pick, intake date (today by default), enrol. */
export function EnrolPanel({ cohortId, enrolledIds, onClose }: { cohortId: string; enrolledIds: ReadonlySet<string>; onClose: () => void }) {
  const participants = useParticipants();
  // Lower-case every name once per list change, not per keystroke (10,000 participants).
  const index = useMemo(() => buildSearchIndex(participants ?? []), [participants]);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Participant | null>(null);
  const [intakeDate, setIntakeDate] = useState(() => todayISO());
  const [pending, setPending] = useState(false);
  const result = useMemo(() => searchParticipants(index, query, enrolledIds), [index, query, enrolledIds]);

  function choose(p: Participant) {
    setSelected(p);
    setQuery(participantName(p));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!selected || pending) return;
    setPending(true);
    try {
      await enrollParticipant({ participant_id: selected.id, cohort_id: cohortId, intake_date: intakeDate || todayISO() });
      toast.success('Participant enrolled successfully!');
      onClose();
    } catch {
      toast.error('Failed to enroll participant. Please try again.');
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="mb-5 space-y-4 rounded-lg border border-blue-100 bg-blue-50/50 p-4" aria-label="Enroll a participant">
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
          <EnrolSearchResults loading={!participants} result={result} onChoose={choose} />
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
    </form>
  );
}
