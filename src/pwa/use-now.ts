import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `everyMs` so 'Synced 2 min ago' keeps counting while nothing
 * else re-renders. 30 s: the label's smallest unit is a minute, so it is at most 30 s late.
 */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(t);
  }, [everyMs]);
  return now;
}
