/**
 * The signed-in user as the shell gives it to the screens: provided by the app shell once start-up
 * resolved (null before/without), with the one way a screen may replace it (the profile it just
 * submitted). Screens never reach into the shell's auth state itself.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { User } from '../../shared/entities';

interface CurrentUser {
  user: User | null;
  /** Replace the signed-in user (ProfileSetup, after the profile was submitted). */
  setUser(user: User): void;
}

const CurrentUserContext = createContext<CurrentUser>({ user: null, setUser: () => undefined });

export function CurrentUserProvider({ user, setUser, children }: CurrentUser & { children: ReactNode }) {
  const value = useMemo(() => ({ user, setUser }), [user, setUser]);
  return <CurrentUserContext.Provider value={value}>{children}</CurrentUserContext.Provider>;
}

export function useCurrentUser(): User | null {
  return useContext(CurrentUserContext).user;
}

export function useSetCurrentUser(): (user: User) => void {
  return useContext(CurrentUserContext).setUser;
}

export function useIsAdmin(): boolean {
  return useCurrentUser()?.role === 'admin';
}
