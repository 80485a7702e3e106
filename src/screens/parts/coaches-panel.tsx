import { Mail } from 'lucide-react';
import { Panel } from '../../ui/card';

/** Coaches ({count}): the distinct lead and support coach emails of a group of cohorts. */
export function CoachesPanel({ emails }: { emails: string[] }) {
  return (
    <Panel title={`Coaches (${emails.length})`}>
      {emails.length === 0 ? (
        <p className="text-sm text-slate-500">No coaches assigned yet</p>
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
