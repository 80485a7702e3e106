import * as session from '../../data/session';
import * as runtime from '../../data/runtime';
import * as deviceLock from '../../data/device-lock';
import type { DataContext } from '../../data/provider';
import { confirmLogout } from '../../pwa/confirm-logout';
import type { AuthEnvironment } from './auth-provider';

/**
 * The real world for AuthProvider: location, and the data layer's session, device lock and sync
 * runtime, each acting on this device's data context `data` (the one the app provides to the screens).
 */
export function browserAuthEnvironment(
  data: DataContext,
  overrides: Partial<AuthEnvironment> & Pick<AuthEnvironment, 'getToken' | 'clearToken' | 'completeSignIn' | 'loginUrl' | 'sessionIdOf'>,
): AuthEnvironment {
  return {
    appBaseUrl: '',
    navigate: (url) => window.location.assign(url),
    reload: () => window.location.reload(),
    session: {
      getCachedUser: () => session.getCachedUser(data),
      cacheCurrentUser: (user) => session.cacheCurrentUser(data, user),
      lockedVaultOwner: () => session.lockedVaultOwner(data),
      pendingCountFor: (userId) => session.pendingCountFor(data, userId),
      otherUsersWithPendingOps: (userId) => session.otherUsersWithPendingOps(data, userId),
      clearLocalData: () => session.clearLocalData(data),
      rememberSessionToEnd: session.rememberSessionToEnd,
      sessionsToEnd: session.sessionsToEnd,
      sessionsEnded: session.sessionsEnded,
    },
    sync: {
      start: async (args) => {
        await runtime.startDataSync(data, args);
        // S12: ask right after sign-in, so the browser does not evict the outbox under pressure;
        // on a tablet's first sign-in, ask the coach too when the browser did not grant it (#12.11).
        // Loaded on demand: its toast library is not part of the first page's JavaScript (#11.6).
        void import('../../pwa/storage-prompt-toast').then((m) => m.promptForPersistentStorage()).catch(() => undefined);
      },
      stop: () => runtime.stopDataSync(data),
      onRevoked: (listener) => runtime.onDeviceRevoked(data, listener),
    },
    confirmLogout,
    vault: {
      openDeviceLock: (args) => deviceLock.openDeviceLock(data, args),
      unlockDevice: (pin) => deviceLock.unlockDevice(data, pin),
      chooseDevicePin: (pin, options) => deviceLock.chooseDevicePin(data, pin, options),
      lockDevice: (options) => deviceLock.lockDevice(data, options),
      deviceLockInfo: () => deviceLock.deviceLockInfo(data),
      forgetSession: () => deviceLock.forgetSession(data),
      isDeviceUnlocked: () => deviceLock.isDeviceUnlocked(data),
      askPinReset: deviceLock.askPinReset,
      onLockedElsewhere: deviceLock.onLockedElsewhere,
      secondFactorAvailable: deviceLock.secondFactorAvailable,
    },
    ...overrides,
  };
}
