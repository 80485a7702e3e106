import { useEffect, useEffectEvent, useState } from 'react';
import { useAuth } from './auth-context';

/** What counts as the coach using the tablet. */
const ACTIVITY = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Locks after `minutes` without interaction (issue #14.3, AC-11). Time is read from the clock,
 * not counted by a timer, so a tablet that slept past the limit locks the moment it wakes.
 */
export function useIdleLock(minutes: number | null, onIdle: () => void, now: () => number = Date.now): void {
  const idle = useEffectEvent(onIdle);
  useEffect(() => {
    if (!minutes || minutes <= 0) return;
    const limit = minutes * 60_000;
    let last = now();
    let fired = false;
    const touch = () => {
      last = now();
    };
    const check = () => {
      if (!fired && now() - last >= limit) {
        fired = true;
        idle();
      }
    };
    for (const type of ACTIVITY) window.addEventListener(type, touch, { passive: true, capture: true });
    document.addEventListener('visibilitychange', check);
    const timer = setInterval(check, Math.min(15_000, Math.max(250, limit / 4)));
    return () => {
      for (const type of ACTIVITY) window.removeEventListener(type, touch, { capture: true });
      document.removeEventListener('visibilitychange', check);
      clearInterval(timer);
    };
  }, [minutes, now]);
}

/** The idle lock of the open app, with the administrator's minutes from the device's vault. */
export function IdleLock() {
  const { lockInfo, lockIdle } = useAuth();
  const [minutes, setMinutes] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    lockInfo()
      .then((info) => live && setMinutes(Math.min(30, info.policy.idle_lock_minutes)))
      .catch(() => live && setMinutes(15));
    return () => {
      live = false;
    };
  }, [lockInfo]);
  useIdleLock(minutes, lockIdle);
  return null;
}
