import { createContext, useContext } from 'react';
import type { User } from '../../shared/entities';

/** The signed-in user, provided by the app shell once start-up resolved (null before/without). */
export const CurrentUserContext = createContext<User | null>(null);

export function useCurrentUser(): User | null {
  return useContext(CurrentUserContext);
}

export function useIsAdmin(): boolean {
  return useCurrentUser()?.role === 'admin';
}
