import { formatDate } from '../../domain/format';
import { Card } from '../../ui/card';

/** Shown only when consent_signed is true (spec 2.7). */
export function ConsentCard({ consentDate }: { consentDate: string | null | undefined }) {
  return (
    <Card className="border-emerald-200 bg-emerald-50 p-5">
      <h2 className="sr-only">Consent</h2>
      <p className="font-semibold text-emerald-800">✓ Consent Signed</p>
      <p className="mt-1 text-sm text-emerald-900">{formatDate(consentDate, 'N/A')}</p>
    </Card>
  );
}
