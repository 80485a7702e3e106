import type { FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { pagePath } from '../../shell-api/paths';
import { PRODUCT } from '../../../shared/config';
import { createParticipant } from '../../data/commands/participants';
import { todayISO } from '../../domain/format';
import { emptyParticipantForm, toCreateInput } from '../../domain/participant-form';
import { Button, buttonClass } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { PageLink } from '../../ui/page-link';
import { ParticipantFormSections } from '../parts/participant-form/participant-form-sections';
import { useParticipantForm } from '../parts/participant-form/use-participant-form';
import { useCommand } from '../parts/use-command';

/**
 * Spec 2.6. The participant is saved on this device first (createParticipant: mirror row + outbox
 * op in one transaction), so adding works offline and the toast means "saved", not "sent".
 */
export function AddParticipantPage() {
  const navigate = useNavigate();
  const { values, errors, set, validate } = useParticipantForm(emptyParticipantForm);
  const add = useCommand((data) => createParticipant(data, toCreateInput(values, todayISO())), {
    success: 'Participant added successfully!',
    failure: 'Failed to add participant',
    onSuccess: () => navigate({ to: pagePath('Participants') }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (add.pending || !validate()) return;
    void add.run();
  }

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Add New Participant" subtitle={`Enroll a new participant in ${PRODUCT}`} />
      <form noValidate onSubmit={submit} aria-label="Add participant">
        <ParticipantFormSections values={values} errors={errors} set={set} />
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
