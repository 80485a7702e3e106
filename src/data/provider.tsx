/**
 * The data context of this device, for the screens: the app creates one per device (its database,
 * signed-in user, clock, client and sync control) and provides it at the root; queries and commands
 * take it from here, a test renders with its own (test/support `makeDevice`). Commands take it as
 * their first argument: `createParticipant(data, input)`.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { DataContext } from './context';

/** Screens take the type from here, never from context.ts. */
export type { DataContext } from './context';

const DataContextReact = createContext<DataContext | null>(null);

export function DataProvider({ value, children }: { value: DataContext; children: ReactNode }) {
  return <DataContextReact.Provider value={value}>{children}</DataContextReact.Provider>;
}

/** The data context provided above this component; throws when none is (a wiring error). */
export function useDataContext(): DataContext {
  const ctx = useContext(DataContextReact);
  if (!ctx) throw new Error('No DataProvider above this component: wrap the app (or the test) in <DataProvider value={…}>.');
  return ctx;
}
