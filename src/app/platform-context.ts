import { createContext, useContext } from 'react';
import type { PlatformClient } from '../platform';

/** The platform client of this page, for the shell's own calls (usage log, logout URL). */
export const PlatformContext = createContext<PlatformClient | null>(null);

export function usePlatform(): PlatformClient {
  const client = useContext(PlatformContext);
  if (!client) throw new Error('usePlatform must be used inside <PlatformContext.Provider>');
  return client;
}
