import type { Participant } from '../../../shared/entities';
import type { DataContext } from '../context';
import { createRecord, updateRecord, type EditBasis } from './record-writes';

export type ParticipantInput = Omit<Participant, 'id' | 'created_date' | 'updated_date' | 'created_by' | 'created_by_id' | 'client_ref'>;

/** Spec 9 defaults; the form normally sends them, a caller that leaves them out still gets them. */
const DEFAULTS: Partial<Participant> = { custody_status: 'in-custody', gender: 'male' };

function withDefaults(input: ParticipantInput): ParticipantInput {
  const out: Record<string, unknown> = { ...input };
  for (const [k, v] of Object.entries(DEFAULTS)) if (out[k] === undefined) out[k] = v;
  return out as ParticipantInput;
}

/**
 * Issue #22: a participant this tablet created or changed stays on it while they have no
 * enrollment, whatever the tablet's sites (an 'own' pin, in the same transaction as the change):
 * a new intake must never vanish because it is not enrolled yet.
 */
function pinOwn({ db }: DataContext) {
  return {
    tables: [db.pins],
    run: async (row: Record<string, unknown>) => {
      await db.pins.put({ entity: 'Participant', id: String(row.id), reason: 'own', until: null });
    },
  };
}

/** Saved on this device at once (temporary id), pushed later (S1–S3). */
export function createParticipant(ctx: DataContext, input: ParticipantInput): Promise<Participant> {
  return createRecord<Participant>(ctx, 'Participant', withDefaults(input), pinOwn(ctx));
}

/**
 * Only the fields that really change are queued (S4). Accepts a temporary id or its alias. `basis`:
 * the record as the edit form opened (S18), when it may have changed on another device since.
 */
export function updateParticipant(ctx: DataContext, id: string, patch: Partial<ParticipantInput>, basis?: EditBasis): Promise<Participant> {
  return updateRecord<Participant>(ctx, 'Participant', id, patch, pinOwn(ctx), basis ? { basis } : undefined);
}
