import { createContext, useContext, type ReactNode } from 'react';

/**
 * Places in the shell that other parts fill without editing src/app: `headerStatus` sits in the
 * header, left of the user's name (the PWA's sync indicator goes there). Set in src/main.tsx.
 */
export interface ShellSlots {
  headerStatus?: ReactNode;
}

export const ShellSlotsContext = createContext<ShellSlots>({});

export function useShellSlots(): ShellSlots {
  return useContext(ShellSlotsContext);
}
