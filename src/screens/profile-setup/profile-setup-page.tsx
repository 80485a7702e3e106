import { Navigate } from '@tanstack/react-router';
import { Loader2 } from 'lucide-react';
import { useCurrentUser, useSetCurrentUser } from '../../shell-api/current-user';
import { pagePath } from '../../shell-api/paths';
import { accessWasRefused, awaitsApproval, profileSetupSendsHome } from '../../domain/access';
import { AccessNotGranted } from './access-not-granted';
import { PendingApproval } from './pending-approval';
import { ProfileFormView } from './profile-form-view';

/**
 * ProfileSetup (spec.md 2.14): approved users go to the Dashboard; users who asked for access see
 * that it is pending; rejected users see that it was not granted (issue #12.5); everyone else fills
 * in the coach profile.
 */
export function ProfileSetupPage() {
  const user = useCurrentUser();
  const setUser = useSetCurrentUser();

  if (!user) {
    return (
      <div role="status" className="flex justify-center py-16 text-slate-600">
        <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin" />
        <span className="sr-only">Loading your profile</span>
      </div>
    );
  }
  if (profileSetupSendsHome(user)) return <Navigate to={pagePath('Dashboard')} replace />;
  if (accessWasRefused(user) && user.requested_access_date) return <AccessNotGranted requestedOn={user.requested_access_date} />;
  if (awaitsApproval(user)) return <PendingApproval requestedOn={user.requested_access_date} />;
  return <ProfileFormView user={user} onSubmitted={setUser} />;
}
