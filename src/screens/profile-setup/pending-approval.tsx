import { Clock } from 'lucide-react';
import { formatDate } from '../../domain/format';
import { Card } from '../../ui/card';

/** ProfileSetup for a user who has asked for access and is not yet approved (spec.md 2.14). */
export function PendingApproval({ requestedOn }: { requestedOn: string | null | undefined }) {
  return (
    <Card className="mx-auto max-w-xl p-8 text-center">
      <Clock aria-hidden="true" className="mx-auto mb-4 h-12 w-12 text-amber-600" />
      <h1 className="text-2xl font-bold text-slate-900">Access Pending Approval</h1>
      <p className="mt-3 text-slate-700">Thank you for registering as a Reentry Coach!</p>
      <p className="mt-2 text-slate-700">
        Your profile has been submitted and is awaiting approval from an administrator. You will be able to access the
        database once your request is approved.
      </p>
      <p className="mt-4 text-sm text-slate-600">
        <span className="font-medium">Profile submitted on:</span> {formatDate(requestedOn, 'N/A')}
      </p>
      <p className="mt-4 text-sm text-slate-600">If you have questions, please contact your program administrator.</p>
    </Card>
  );
}
