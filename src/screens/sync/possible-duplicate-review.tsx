import { markDifferentPerson } from '../../data/commands/possible-duplicate';
import { useParticipant } from '../../data/queries/participants';
import { pageUrl } from '../../shell-api/paths';
import { Button, buttonClass } from '../../ui/button';
import { PageLink } from '../../ui/page-link';
import { useCommand } from '../parts/use-command';

/**
 * Issue #23.7: a participant create the server refused as a possible duplicate (same CDCR number
 * as a participant it holds). Each held record can be opened (fetched when not on this tablet);
 * "This is a different person" records that on the new participant and sends it again.
 */
export function PossibleDuplicateReview({ seq, ids, busy }: { seq: number; ids: readonly string[]; busy: boolean }) {
  const mark = useCommand((data) => markDifferentPerson(data, seq), { success: 'Marked as a different person; sending it again', failure: 'That did not work. Please try again.' });
  return (
    <div className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3" aria-label="Possible duplicate">
      <p className="text-sm font-medium text-slate-900">Possible duplicate: this CDCR number is already on the server.</p>
      <ul className="mt-2 space-y-1">
        {ids.map((id) => (
          <HeldRecord key={id} id={id} />
        ))}
      </ul>
      <Button className="mt-3" variant="secondary" disabled={busy || mark.pending} onClick={() => void mark.run()}>
        {mark.pending ? 'Saving...' : 'This is a different person'}
      </Button>
    </div>
  );
}

function HeldRecord({ id }: { id: string }) {
  const held = useParticipant(id);
  const name = held ? `${held.first_name ?? ''} ${held.last_name ?? ''}`.trim() || 'Unnamed participant' : 'A participant not on this tablet';
  return (
    <li className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
      <span>
        {held === undefined ? '' : name}
        {held?.academy_uid ? ` (UID ${held.academy_uid})` : ''}
      </span>
      <PageLink href={pageUrl('ParticipantDetail', id)} className={buttonClass('secondary')} aria-label={`Open ${held ? name : 'the participant already on the server'}`}>
        Open
      </PageLink>
    </li>
  );
}
