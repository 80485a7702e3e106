import * as session from '../../data/session';
import * as runtime from '../../data/runtime';
import type { AuthEnvironment } from './auth-provider';

/** The real world for AuthProvider: location, the data layer's session and sync runtime. */
export function browserAuthEnvironment(overrides: Partial<AuthEnvironment> & Pick<AuthEnvironment, 'getToken' | 'clearToken'>): AuthEnvironment {
  return {
    appBaseUrl: '',
    navigate: (url) => window.location.assign(url),
    reload: () => window.location.reload(),
    session,
    sync: { start: (args) => runtime.startDataSync(args), stop: () => runtime.stopDataSync() },
    ...overrides,
  };
}
