import * as session from '../../data/session';
import * as runtime from '../../data/runtime';
import * as deviceLock from '../../data/device-lock';
import { confirmLogout } from '../../pwa/confirm-logout';
import type { AuthEnvironment } from './auth-provider';

/** The real world for AuthProvider: location, the data layer's session and sync runtime. */
export function browserAuthEnvironment(
  overrides: Partial<AuthEnvironment> & Pick<AuthEnvironment, 'getToken' | 'clearToken' | 'completeSignIn' | 'loginUrl' | 'sessionIdOf'>,
): AuthEnvironment {
  return {
    appBaseUrl: '',
    navigate: (url) => window.location.assign(url),
    reload: () => window.location.reload(),
    session,
    sync: {
      start: async (args) => {
        await runtime.startDataSync(args);
        // S12: ask right after sign-in, so the browser does not evict the outbox under pressure;
        // on a tablet's first sign-in, ask the coach too when the browser did not grant it (#12.11).
        // Loaded on demand: its toast library is not part of the first page's JavaScript (#11.6).
        void import('../../pwa/storage-prompt-toast').then((m) => m.promptForPersistentStorage()).catch(() => undefined);
      },
      stop: () => runtime.stopDataSync(),
      onRevoked: runtime.onDeviceRevoked,
    },
    confirmLogout,
    vault: deviceLock,
    ...overrides,
  };
}
