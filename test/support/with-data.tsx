import type { ReactNode } from 'react';
import { DataProvider } from '../../src/data/provider';
import type { DataContext } from '../../src/data/context';

/**
 * A render option that puts a device's data context above what is rendered (as the app's root
 * does): `renderHook(() => useParticipants(), withData(device.data))`, or `render(<Page />, withData(…))`.
 */
export function withData(data: DataContext) {
  return {
    wrapper: ({ children }: { children: ReactNode }) => <DataProvider value={data}>{children}</DataProvider>,
  };
}
