import { ExternalLink, Mail, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import type { User } from '../../../shared/entities';
import { accessBadge, approvalActions } from '../../domain/access';
import { formatDate, humanize } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';

export type ApprovalAction = 'reject' | 'approve-coach' | 'approve-admin' | 'revoke';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-line text-sm text-slate-800">{children}</dd>
    </div>
  );
}

/** One user on the approvals page (spec.md 2.15), with the actions their state allows. */
export function ApprovalCard({ user, busy, isSelf, onAction }: { user: User; busy: boolean; isSelf: boolean; onAction: (a: ApprovalAction) => void }) {
  const badge = accessBadge(user);
  const actions = approvalActions(user);
  const name = user.full_name || user.email;
  return (
    <Card className="p-5">
      <article aria-label={name}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold text-slate-900">{name}</h2>
            <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
              <Mail aria-hidden="true" className="h-4 w-4" /> {user.email}
            </p>
            {user.phone && (
              <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
                <Phone aria-hidden="true" className="h-4 w-4" /> {user.phone}
              </p>
            )}
          </div>
          <Badge tone={statusTone(badge.toLowerCase())}>{badge}</Badge>
        </div>

        <dl className="mt-4 grid gap-3 sm:grid-cols-2">
          <Detail label="Coach Type">{user.coach_type ? humanize(user.coach_type) : 'Not specified'}</Detail>
          <Detail label="Organization">{user.organization || 'Not specified'}</Detail>
          {user.years_experience != null && <Detail label="Experience">{`${user.years_experience} years`}</Detail>}
          {user.linkedin_url && (
            <Detail label="LinkedIn">
              <a href={user.linkedin_url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-blue-700 underline">
                LinkedIn Profile <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </Detail>
          )}
          {user.areas_of_expertise && <Detail label="Areas of Expertise">{user.areas_of_expertise}</Detail>}
          {user.bio && <Detail label="Professional Background">{user.bio}</Detail>}
          {user.certifications && <Detail label="Certifications">{user.certifications}</Detail>}
          {(user.emergency_contact_name || user.emergency_contact_phone) && (
            <Detail label="Emergency Contact">
              {[user.emergency_contact_name, user.emergency_contact_phone].filter(Boolean).join(' • ')}
            </Detail>
          )}
        </dl>

        <div className="mt-4 space-y-1 border-t border-slate-100 pt-3 text-sm text-slate-600">
          <p>Registered: {formatDate(user.created_date, 'N/A')}</p>
          {user.requested_access_date && <p>Access Requested: {formatDate(user.requested_access_date)}</p>}
          {user.approved && user.approval_date && (
            <p>
              Approved: {formatDate(user.approval_date)}
              {user.approved_by ? ` by ${user.approved_by}` : ''}
            </p>
          )}
        </div>

        {(actions === 'decide' || actions === 'reconsider') && (
          <div className="mt-4 flex flex-wrap gap-2">
            {actions === 'decide' && (
              <Button variant="danger" disabled={busy} onClick={() => onAction('reject')}>
                Reject
              </Button>
            )}
            <Button disabled={busy} onClick={() => onAction('approve-coach')}>
              Approve as Coach
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => onAction('approve-admin')}>
              Approve as Admin
            </Button>
          </div>
        )}
        {actions === 'revoke' &&
          (isSelf ? (
            // The server refuses changes to one's own access; say so instead of offering a failing button.
            <p className="mt-4 text-sm text-slate-500">This is your account.</p>
          ) : (
            <div className="mt-4">
              <Button variant="danger" disabled={busy} onClick={() => onAction('revoke')}>
                Revoke Access
              </Button>
            </div>
          ))}
      </article>
    </Card>
  );
}
