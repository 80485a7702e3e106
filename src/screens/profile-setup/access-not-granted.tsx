import { ShieldX } from 'lucide-react';
import { formatDate } from '../../domain/format';
import { Card } from '../../ui/card';

/**
 * ProfileSetup for a user whose access request was rejected, or whose access was revoked (issue
 * #12.5). The spec is silent here (it showed them 'Access Pending Approval'); the wording is ours:
 * say plainly that access was not granted, and whom to ask.
 */
export function AccessNotGranted({ requestedOn }: { requestedOn: string | null | undefined }) {
  return (
    <Card className="mx-auto max-w-xl p-8 text-center">
      <ShieldX aria-hidden="true" className="mx-auto mb-4 h-12 w-12 text-red-700" />
      <h1 className="text-2xl font-bold text-slate-900">Access Not Granted</h1>
      <p className="mt-3 text-slate-700">
        An administrator has reviewed your coach profile and did not grant you access to the database, or your access
        has been withdrawn.
      </p>
      {requestedOn && (
        <p className="mt-4 text-sm text-slate-600">
          <span className="font-medium">Profile submitted on:</span> {formatDate(requestedOn, 'N/A')}
        </p>
      )}
      <p className="mt-4 text-sm text-slate-600">
        If you think this is a mistake, contact your program administrator — the person at your organisation who manages
        Passage accounts — and ask them to review your request.
      </p>
    </Card>
  );
}
