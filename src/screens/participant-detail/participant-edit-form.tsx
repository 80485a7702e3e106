import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { updateParticipant } from '../../data/commands/participants';
import type { Participant } from '../../../shared/entities';
import { formFromParticipant, toPatch } from '../../domain/participant-form';
import { ParticipantFormSections } from '../parts/participant-form/participant-form-sections';
import { fieldId, useParticipantForm } from '../parts/participant-form/use-participant-form';
import { Button } from '../../ui/button';

/**
 * Inline edit of ParticipantDetail (spec 2.7): the AddParticipant sections, filled in. Saves only
 * the fields that changed since editing began (updateParticipant queues them for the server, S4),
 * so it works offline; on failure the form stays open with the person's input.
 */
export function ParticipantEditForm({ participant, onDone }: { participant: Participant; onDone: () => void }) {
  const { values, errors, set, validate } = useParticipantForm(() => formFromParticipant(participant));
  const [pending, setPending] = useState(false);

  // Switching to edit mode moves focus into the form, so keyboard and screen-reader users land where the change happened.
  useEffect(() => document.getElementById(fieldId('academy_uid'))?.focus(), []);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (pending || !validate()) return;
    const patch = toPatch(participant, values);
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    setPending(true);
    try {
      await updateParticipant(participant.id, patch);
      toast.success('Participant updated successfully!');
      onDone();
    } catch (err) {
      console.error('updateParticipant failed', err);
      toast.error('Failed to update participant. Your changes are still in the form.');
      setPending(false);
    }
  }

  return (
    <form noValidate onSubmit={save} aria-label="Edit participant">
      <ParticipantFormSections values={values} errors={errors} set={set} />
      {/* Sticky (issue #12.8): on a tablet the form is several screens long; Save stays in reach. */}
      <div
        data-testid="edit-actions"
        className="sticky bottom-0 z-10 -mx-4 mt-6 flex flex-col-reverse gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:flex-row sm:justify-end sm:px-6 lg:-mx-8 lg:px-8"
      >
        <Button variant="secondary" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
