import { useState } from 'react';
import { ShieldAlert } from 'lucide-react';
import { clearLocalData } from '../data/session';
import { useDataContext } from '../data/provider';
import { usePendingOwners } from '../data/queries/sync';
import { useUserNames } from '../data/queries/users';
import type { User } from '../../shared/entities';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { unsentPhrase } from './logout-warning';

/**
 * S11 on a shared tablet: someone else's changes are still waiting on this device and only their
 * own sign-in can send them (the server records who made each change, and the new user may not
 * be allowed to make it). So the new user is stopped here until those changes are synced (their
 * owner signs in) or, by an administrator, discarded on purpose. The shell renders this instead
 * of the app when `otherUsersWithPendingOps(user.id)` is not empty; it calls `onClear` once
 * nothing of another user is pending any more (after a discard).
 */
export function PendingOtherUserGate({ user, onSignOut, onClear }: { user: User; onSignOut: () => void; onClear: () => void }) {
  const data = useDataContext();
  const owners = usePendingOwners(user.id);
  const names = useUserNames();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (owners === undefined) return null;
  const total = owners.reduce((n, o) => n + o.count, 0);
  const ownerNames = owners.map((o) => names?.get(o.id) ?? 'another user').join(', ');
  const isAdmin = user.role === 'admin';

  const discard = async () => {
    setBusy(true);
    setError(null);
    try {
      await clearLocalData(data);
      setConfirming(false);
      onClear();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The changes could not be discarded.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main data-app-ready className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-lg p-6">
        <div className="flex items-start gap-3">
          <ShieldAlert className="mt-1 h-6 w-6 shrink-0 text-amber-600" aria-hidden="true" />
          <div>
            <h1 className="text-xl font-semibold text-slate-900">Another user's changes are waiting</h1>
            <p className="mt-2 text-sm text-slate-700">
              {ownerNames} made {unsentPhrase(total)} yet. They can only be sent when {owners.length === 1 ? 'that person signs' : 'those people sign'} in
              on this device again, so Passage stays closed to other accounts until then.
            </p>
            {isAdmin ? (
              <p className="mt-2 text-sm text-slate-700">As an administrator you can discard them instead; they will be lost.</p>
            ) : (
              <p className="mt-2 text-sm text-slate-700">Only an administrator can discard them.</p>
            )}
            {error && (
              <p role="alert" className="mt-3 text-sm text-red-700">
                {error}
              </p>
            )}
            <div className="mt-5 flex flex-wrap gap-3">
              <Button onClick={onSignOut}>Sign out so they can sync</Button>
              {isAdmin && (
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  Discard their changes
                </Button>
              )}
            </div>
          </div>
        </div>
      </Card>
      <ConfirmDialog
        open={confirming}
        title="Discard these changes?"
        description={`${total === 1 ? '1 change' : `${total} changes`} by ${ownerNames} will be deleted from this device without reaching the server. This cannot be undone.`}
        confirmLabel="Discard changes"
        busy={busy}
        onConfirm={() => void discard()}
        onCancel={() => setConfirming(false)}
      />
    </main>
  );
}
