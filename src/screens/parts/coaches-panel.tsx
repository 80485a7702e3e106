import { Mail } from 'lucide-react';
import { Panel } from '../../ui/card';
import { Covers } from './scope-absence';

/**
 * Coaches ({count}): the distinct lead and support coach emails of a group of cohorts. `covers`:
 * what the count covers on a tablet holding some sites (issue #22.4); its empty list is then empty
 * on this tablet, not in the academy.
 */
export function CoachesPanel({ emails, covers = '' }: { emails: string[]; covers?: string }) {
  return (
    <Panel
      title={
        <>
          Coaches ({emails.length})
          <Covers phrase={covers} />
        </>
      }
    >
      {emails.length === 0 ? (
        <p className="text-sm text-slate-500">{covers ? 'None on this tablet' : 'No coaches assigned yet'}</p>
      ) : (
        <ul className="space-y-2">
          {emails.map((email) => (
            <li key={email} className="flex items-center gap-2 text-sm text-slate-700">
              <Mail className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
              <a href={`mailto:${email}`} className="truncate text-blue-700 hover:underline">
                {email}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
