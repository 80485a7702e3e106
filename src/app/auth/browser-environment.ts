import * as session from '../../data/session';
import * as runtime from '../../data/runtime';
import { confirmLogout } from '../../pwa/confirm-logout';
import { requestPersistentStorage } from '../../pwa/storage';
import type { AuthEnvironment } from './auth-provider';

/** The real world for AuthProvider: location, the data layer's session and sync runtime. */
export function browserAuthEnvironment(overrides: Partial<AuthEnvironment> & Pick<AuthEnvironment, 'getToken' | 'clearToken'>): AuthEnvironment {
  return {
    appBaseUrl: '',
    navigate: (url) => window.location.assign(url),
    reload: () => window.location.reload(),
    session,
    sync: {
      start: async (args) => {
        await runtime.startDataSync(args);
        // S12: ask right after sign-in, so the browser does not evict the outbox under pressure.
        void requestPersistentStorage();
      },
      stop: () => runtime.stopDataSync(),
    },
    confirmLogout,
    ...overrides,
  };
}
