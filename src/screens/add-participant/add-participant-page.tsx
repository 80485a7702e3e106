import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { pagePath } from '../../shell-api/paths';
import { PRODUCT } from '../../../shared/config';
import { createParticipant } from '../../data/commands/participants';
import { useDuplicatesBeyond } from '../../data/online/duplicates-beyond';
import { useLocalDuplicates } from '../../data/queries/duplicates';
import { todayISO } from '../../domain/format';
import { emptyParticipantForm, toCreateInput } from '../../domain/participant-form';
import { Button, buttonClass } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { PageLink } from '../../ui/page-link';
import { ParticipantFormSections } from '../parts/participant-form/participant-form-sections';
import { useParticipantForm } from '../parts/participant-form/use-participant-form';
import { useCommand } from '../parts/use-command';
import { PossibleDuplicatesPanel, type DuplicateEntry } from './possible-duplicates-panel';

/**
 * Spec 2.6. The participant is saved on this device first (createParticipant: mirror row + outbox
 * op in one transaction), so adding works offline and the toast means "saved", not "sent".
 *
 * Issue #23.7: while the coach types, possible duplicates show inline — the tablet's at every
 * keystroke (an index look-up), other sites' from the server once the CDCR number or date of birth
 * rests for 300 ms. Adding anyway is allowed: every match listed or dismissed at that moment is
 * recorded on the new participant (different_person_from), so the server does not refuse it as a
 * duplicate of those; one it could not see here is refused (409) and reviewed on the Sync page.
 */
export function AddParticipantPage() {
  const navigate = useNavigate();
  const { values, errors, set, validate } = useParticipantForm(emptyParticipantForm);
  const { matches: localMatches, places } = useLocalDuplicates(values);
  const beyond = useDuplicatesBeyond(values);
  const [different, setDifferent] = useState<ReadonlySet<string>>(() => new Set());
  // Memoised so the panel renders again only when its matches change, not at every keystroke.
  const matches = useMemo<DuplicateEntry[]>(
    () => [
      ...(localMatches ?? []).map((m) => ({ ...m, places: places.get(m.participant.id) ?? [], onTablet: true })),
      ...beyond.matches.map((m) => ({ ...m, onTablet: false })),
    ],
    [localMatches, places, beyond.matches],
  );
  const shown = useMemo(() => matches.filter((m) => !different.has(m.participant.id)), [matches, different]);
  const markDifferent = useCallback((id: string) => setDifferent((d) => new Set(d).add(id)), []);

  const add = useCommand(
    (data) => {
      const reviewed = matches.map((m) => m.participant.id);
      return createParticipant(data, { ...toCreateInput(values, todayISO()), ...(reviewed.length ? { different_person_from: reviewed } : {}) });
    },
    {
      success: 'Participant added successfully!',
      failure: 'Failed to add participant',
      onSuccess: () => navigate({ to: pagePath('Participants') }),
    },
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    if (add.pending || !validate()) return;
    void add.run();
  }

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Add New Participant" subtitle={`Enroll a new participant in ${PRODUCT}`} />
      <form noValidate onSubmit={submit} aria-label="Add participant">
        <ParticipantFormSections
          values={values}
          errors={errors}
          set={set}
          afterPersonal={
            <div aria-live="polite">
              <PossibleDuplicatesPanel entries={shown} beyond={beyond.status} onDifferent={markDifferent} />
            </div>
          }
        />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <PageLink href={pagePath('Participants')} className={buttonClass('secondary')}>
            Cancel
          </PageLink>
          <Button type="submit" disabled={add.pending}>
            {add.pending ? 'Adding...' : 'Add Participant'}
          </Button>
        </div>
      </form>
    </div>
  );
}
