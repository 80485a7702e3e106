import { useEffect, type FormEvent } from 'react';
import { updateParticipant } from '../../data/commands/participants';
import type { Participant } from '../../../shared/entities';
import { formFromParticipant, toPatch } from '../../domain/participant-form';
import { ParticipantFormSections } from '../parts/participant-form/participant-form-sections';
import { fieldId, useParticipantForm } from '../parts/participant-form/use-participant-form';
import { useCommand } from '../parts/use-command';
import { Button } from '../../ui/button';

/**
 * Inline edit of ParticipantDetail (spec 2.7): the AddParticipant sections, filled in. Saves only
 * the fields that changed since editing began (updateParticipant queues them for the server, S4),
 * so it works offline; on failure the form stays open with the person's input.
 */
export function ParticipantEditForm({ participant, onDone }: { participant: Participant; onDone: () => void }) {
  const { values, errors, set, validate } = useParticipantForm(() => formFromParticipant(participant));
  const update = useCommand((data, patch: ReturnType<typeof toPatch>) => updateParticipant(data, participant.id, patch), {
    success: 'Participant updated successfully!',
    // The spec shows no failure for this edit (spec.md 8); the words are ours.
    failure: 'Failed to update participant. Your changes are still in the form.',
    onSuccess: onDone,
  });

  // Switching to edit mode moves focus into the form, so keyboard and screen-reader users land where the change happened.
  useEffect(() => document.getElementById(fieldId('academy_uid'))?.focus(), []);

  function save(e: FormEvent) {
    e.preventDefault();
    if (update.pending || !validate()) return;
    const patch = toPatch(participant, values);
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    void update.run(patch);
  }

  return (
    <form noValidate onSubmit={save} aria-label="Edit participant">
      <ParticipantFormSections values={values} errors={errors} set={set} />
      {/* Sticky (issue #12.8): on a tablet the form is several screens long; Save stays in reach. */}
      <div
        data-testid="edit-actions"
        className="sticky bottom-0 z-10 -mx-4 mt-6 flex flex-col-reverse gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:flex-row sm:justify-end sm:px-6 lg:-mx-8 lg:px-8"
      >
        <Button variant="secondary" onClick={onDone} disabled={update.pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.pending}>
          {update.pending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
